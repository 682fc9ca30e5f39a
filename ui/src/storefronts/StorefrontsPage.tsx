import { Anchor, Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { deleteStore, stores, type Store } from '../api/stores';
import { can } from '../access/rules';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { useSessionUser } from '../session/useSessionUser';
import { STORES_KEY } from './keys';
import { shopURL } from './shopURL';
import { LabelBadge } from '../components/LabelBadge';
import { plural } from '../format/plural';

/** `/storefronts`: the account's stores, searchable, with their shop address, open state and campaigns. */
export function StorefrontsPage() {
  const user = useSessionUser();
  const canEdit = can(user, 'update_campaign');
  const { q, search, debounced, page, setPage } = useListSearch();
  const [deleting, setDeleting] = useState<Store | null>(null);
  const list = useQuery({
    queryKey: [...STORES_KEY, debounced, page],
    queryFn: ({ signal }) => stores(api, page, debounced, signal),
  });
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz="h2">
          All Stores
        </Title>
        <Group>
          <Button variant="default" component={Link} to="/storefronts/pages">
            Store pages
          </Button>
          {canEdit && (
            <Button leftSection={<IconPlus size={16} />} component={Link} to="/storefronts/edit/new">
              New store
            </Button>
          )}
        </Group>
      </Group>
      <TextInput
        placeholder="Search by name or address"
        aria-label="Search stores"
        value={q}
        onChange={(event) => search(event.currentTarget.value)}
        w={320}
      />
      <PagedListCard list={list} loadingLabel="Loading stores">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Store</Table.Th>
                <Table.Th>Shop address</Table.Th>
                <Table.Th>Currency</Table.Th>
                <Table.Th>Campaigns</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((s) => (
                <Table.Tr key={s.id} data-testid="store">
                  <Table.Td>{s.name}</Table.Td>
                  <Table.Td>
                    <Anchor href={shopURL(s.slug)} target="_blank" rel="noreferrer">
                      {shopURL(s.slug)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{s.currency}</Table.Td>
                  <Table.Td>{plural(s.campaigns, 'campaign')}</Table.Td>
                  <Table.Td>
                    <LabelBadge color={s.is_open ? 'green' : 'gray'}>{s.is_open ? 'Open' : 'Closed'}</LabelBadge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="light" component={Link} to={`/storefronts/edit/${s.id}`}>
                        {canEdit ? 'Edit' : 'View'}
                      </Button>
                      <Button size="xs" variant="subtle" component={Link} to={`/storefronts/pages?store=${s.id}`}>
                        Pages
                      </Button>
                      <Button size="xs" variant="subtle" component={Link} to={`/storefronts/${s.id}/blog`}>
                        Blog
                      </Button>
                      <Button size="xs" variant="subtle" component={Link} to={`/storefronts/sitemap/${s.id}`}>
                        Sitemap
                      </Button>
                      {canEdit && (
                        <Button size="xs" color="red" variant="subtle" onClick={() => setDeleting(s)}>
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
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={async (id) => (await deleteStore(api, id)).message}
        queryKey={STORES_KEY}
      />
    </Stack>
  );
}

