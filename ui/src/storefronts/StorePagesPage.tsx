import { Anchor, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api';
import { deleteStorePage, MENU_POSITIONS, storePages, type StorePageSummary } from '../api/storePages';
import { can } from '../access/rules';
import { LabelBadge } from '../components/LabelBadge';
import { ListPager, ListTotal, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { formatDateTime } from '../format/dateTime';
import { label } from '../format/labels';
import { useSessionUser } from '../session/useSessionUser';
import { STORE_PAGES_KEY } from './keys';
import { shopURL } from './shopURL';
import { useStoreChoices } from './useStoreChoices';

const MENU_LABELS = Object.fromEntries(MENU_POSITIONS.map((m) => [m.value, m.label]));

/** `/storefronts/pages`: every page of the seller's stores, by store and searchable, with its menu and state. */
export function StorePagesPage() {
  const user = useSessionUser();
  const canEdit = can(user, 'update_campaign');
  const [params, setParams] = useSearchParams();
  const storeId = Number(params.get('store')) || null;
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [deleting, setDeleting] = useState<StorePageSummary | null>(null);
  const choices = useStoreChoices();
  const list = useQuery({
    queryKey: [...STORE_PAGES_KEY, storeId, debounced, page],
    queryFn: ({ signal }) => storePages(api, { page, q: debounced, storeId }, signal),
  });
  const pickStore = resetting((value: string | null) => setParams(value ? { store: value } : {}, { replace: true }));
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            Store Pages
          </Title>
          <Text c="dimmed" size="sm">
            About, shipping, size guides: the pages your stores&apos; menus link to.
          </Text>
        </Stack>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} component={Link} to={`/storefronts/pages/create${storeId ? `?store=${storeId}` : ''}`}>
            New page
          </Button>
        )}
      </Group>
      <Group>
        <Select
          aria-label="Store"
          placeholder="All stores"
          data={choices.options}
          value={storeId ? String(storeId) : null}
          onChange={pickStore}
          clearable
          w={240}
        />
        <TextInput placeholder="Search by title or address" aria-label="Search pages" value={q} onChange={(e) => search(e.currentTarget.value)} w={320} />
        <ListTotal total={list.data?.total} one="page" many="pages" />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading pages">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Page</Table.Th>
                <Table.Th>Store</Table.Th>
                <Table.Th>Menu</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Changed</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={p.id} data-testid="store-page">
                  <Table.Td maw={320}>
                    <Anchor component={Link} to={`/storefronts/pages/edit/${p.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {p.title}
                    </Anchor>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {p.published ? (
                        <Anchor href={`${shopURL(p.store_slug)}p/${p.slug}`} target="_blank" rel="noreferrer" size="xs">
                          /p/{p.slug}
                        </Anchor>
                      ) : (
                        `/p/${p.slug}`
                      )}
                    </Text>
                  </Table.Td>
                  <Table.Td>{p.store_name}</Table.Td>
                  <Table.Td>{label(MENU_LABELS, p.menu_position)}</Table.Td>
                  <Table.Td>
                    <LabelBadge color={p.published ? 'green' : 'gray'}>{p.published ? 'Published' : 'Draft'}</LabelBadge>
                  </Table.Td>
                  <Table.Td>{formatDateTime(p.updated_at, user.timezone)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="light" component={Link} to={`/storefronts/pages/edit/${p.id}`}>
                        {canEdit ? 'Edit' : 'View'}
                      </Button>
                      {canEdit && (
                        <Button size="xs" color="red" variant="subtle" onClick={() => setDeleting(p)}>
                          Delete
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
      <ConfirmDelete
        item={deleting && { id: deleting.id, name: deleting.title }}
        onClose={() => setDeleting(null)}
        remove={async (id) => (await deleteStorePage(api, id)).message}
        queryKey={STORE_PAGES_KEY}
      />
    </Stack>
  );
}
