import { Alert, Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { SECTION_LABELS, sitemap, sitemapUrls } from '../api/sitemap';
import { ListPager, ListTotal, PagedListCard } from '../components/PagedList';
import { formatDateTime } from '../format/dateTime';
import { useSessionUser } from '../session/useSessionUser';
import { STORES_KEY } from './keys';

/** `/storefronts/sitemap/{id}/urls/{sitemapId}`: the addresses one file of a store's sitemap lists, page by page. */
export function SitemapUrlsPage() {
  const user = useSessionUser();
  const params = useParams();
  const storeId = Number(params.id) || 0;
  const fileId = params.sitemapId ?? '';
  const [page, setPage] = useState(1);
  const map = useQuery({
    queryKey: [...STORES_KEY, 'sitemap', storeId],
    queryFn: ({ signal }) => sitemap(api, storeId, signal),
    enabled: storeId > 0,
  });
  const list = useQuery({
    queryKey: [...STORES_KEY, 'sitemap', storeId, fileId, page],
    queryFn: ({ signal }) => sitemapUrls(api, storeId, fileId, page, signal),
    enabled: storeId > 0 && fileId !== '',
  });
  if (!storeId || !fileId) {
    return (
      <Alert color="yellow" maw={600}>
        Open a store&apos;s sitemap from{' '}
        <Anchor component={Link} to="/storefronts">
          All Stores
        </Anchor>{' '}
        to see the addresses of one of its files.
      </Alert>
    );
  }
  const file = map.data?.sections.flatMap((s) => s.files).find((f) => f.id === fileId);
  const section = file ? SECTION_LABELS[file.section] : 'Sitemap';
  const several = file ? (map.data?.sections.find((s) => s.section === file.section)?.files.length ?? 0) > 1 : false;
  return (
    <Stack gap="lg" maw={1000}>
      <Stack gap={2}>
        <Anchor component={Link} to={`/storefronts/sitemap/${storeId}`} size="sm">
          ← Sitemap{map.data ? ` of ${map.data.store_name}` : ''}
        </Anchor>
        <Title order={1} fz="h2">
          {section}
          {file && several ? `, file ${file.number}` : ''}
        </Title>
        {file && (
          <Text size="sm">
            Search engines read these addresses from{' '}
            <Anchor href={file.url} target="_blank" rel="noreferrer" style={{ overflowWrap: 'anywhere' }}>
              {file.url}
            </Anchor>
          </Text>
        )}
      </Stack>
      {map.isError && <Alert color="red">{map.error.message}</Alert>}
      <ListTotal total={list.data?.total} one="address" many="addresses" />
      <PagedListCard list={list} loadingLabel="Loading the addresses">
        {(rows) => (
          <Table verticalSpacing="xs" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Address</Table.Th>
                <Table.Th>Last change</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((u) => (
                <Table.Tr key={u.url} data-testid="sitemap-url">
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Anchor href={u.url} target="_blank" rel="noreferrer" size="sm">
                      {u.url}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{u.last_modified ? formatDateTime(u.last_modified, user.timezone) : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
    </Stack>
  );
}
