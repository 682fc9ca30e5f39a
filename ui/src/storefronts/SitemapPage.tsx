import { Alert, Anchor, Button, Card, CopyButton, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { SECTION_LABELS, sitemap } from '../api/sitemap';
import { LabelBadge } from '../components/LabelBadge';
import { formatDateTime } from '../format/dateTime';
import { plural } from '../format/plural';
import { useSessionUser } from '../session/useSessionUser';
import { STORES_KEY } from './keys';

/**
 * `/storefronts/sitemap/{id}`: what a seller needs to submit a store to search engines: the sitemap's address (and
 * its robots.txt) at the store's own address and at each verified domain, and its sections with their counts, last
 * change and files, each file's addresses a click away.
 */
export function SitemapPage() {
  const user = useSessionUser();
  const storeId = Number(useParams().id) || 0;
  const map = useQuery({ queryKey: [...STORES_KEY, 'sitemap', storeId], queryFn: ({ signal }) => sitemap(api, storeId, signal) });
  if (map.isPending) return <Loader aria-label="Loading the sitemap" />;
  if (map.isError) return <Alert color="red">{map.error.message}</Alert>;
  const m = map.data;
  return (
    <Stack gap="lg" maw={1000}>
      <Stack gap={2}>
        <Anchor component={Link} to={`/storefronts/edit/${m.store_id}`} size="sm">
          ← {m.store_name}
        </Anchor>
        <Title order={1} fz="h2">
          Sitemap of {m.store_name}
        </Title>
        <Text c="dimmed" size="sm">
          Search engines find every page of the store from its sitemap. Submit its address in Google Search Console
          (Sitemaps) and Bing Webmaster Tools; the store&apos;s robots.txt names it too, for the others.
        </Text>
      </Stack>
      <Card withBorder radius="lg" padding="lg">
        <Title order={2} fz="h4" mb="sm">
          Addresses to submit
        </Title>
        <Stack gap="sm">
          {m.addresses.map((a) => (
            <Group key={a.origin} justify="space-between" wrap="nowrap" data-testid="sitemap-address">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Group gap="xs">
                  <Anchor href={a.sitemap} target="_blank" rel="noreferrer" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {a.sitemap}
                  </Anchor>
                  {a.custom && <LabelBadge>Your domain</LabelBadge>}
                </Group>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  robots.txt: {a.robots}
                </Text>
              </Stack>
              <CopyButton value={a.sitemap}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy} miw={110}>
                    {copied ? 'Copied' : 'Copy address'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          ))}
        </Stack>
      </Card>
      <Card withBorder radius="lg" padding={0}>
        <Table verticalSpacing="sm" horizontalSpacing="lg">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Section</Table.Th>
              <Table.Th>Addresses</Table.Th>
              <Table.Th>Last change</Table.Th>
              <Table.Th>Files</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {m.sections.map((s) => (
              <Table.Tr key={s.section} data-testid="sitemap-section">
                <Table.Td fw={600}>{SECTION_LABELS[s.section]}</Table.Td>
                <Table.Td>{plural(s.urls, 'address', 'addresses')}</Table.Td>
                <Table.Td>{s.last_modified ? formatDateTime(s.last_modified, user.timezone) : '—'}</Table.Td>
                <Table.Td>
                  {s.files.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      Nothing to list yet
                    </Text>
                  ) : (
                    <Stack gap={4}>
                      {s.files.map((f) => (
                        <Anchor key={f.id} component={Link} to={`/storefronts/sitemap/${m.store_id}/urls/${f.id}`} size="sm">
                          {s.files.length > 1 ? `File ${f.number}: ` : ''}
                          {plural(f.urls, 'address', 'addresses')}
                        </Anchor>
                      ))}
                    </Stack>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      <Text size="xs" c="dimmed">
        A sitemap file holds at most {m.max_urls.toLocaleString('en-US')} addresses; a larger section is split into several
        files, all listed in the sitemap above.
      </Text>
    </Stack>
  );
}
