import { Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { collections, deleteCollection, type Collection } from '../api/collections';
import { can } from '../access/rules';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { plural } from '../format/plural';
import { useSessionUser } from '../session/useSessionUser';
import { COLLECTIONS_KEY, shownIn } from './model';

/** `/collections`: the seller's collections, searchable, with where they show and what they hold. */
export function CollectionsPage() {
  const user = useSessionUser();
  const canEdit = can(user, 'update_campaign');
  const { q, search, debounced, page, setPage } = useListSearch();
  const [deleting, setDeleting] = useState<Collection | null>(null);
  const list = useQuery({
    queryKey: [...COLLECTIONS_KEY, debounced, page],
    queryFn: ({ signal }) => collections(api, page, debounced, signal),
  });
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz="h2">
            Collections
          </Title>
          <Text c="dimmed" size="sm">
            Groups of your campaigns that buyers find in your stores&apos; menu, with the featured ones on the home page.
          </Text>
        </Stack>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} component={Link} to="/collections/edit/new">
            New collection
          </Button>
        )}
      </Group>
      <TextInput placeholder="Search by name or address" aria-label="Search collections" value={q} onChange={(e) => search(e.currentTarget.value)} w={320} />
      <PagedListCard list={list} loadingLabel="Loading collections">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Collection</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Shown in</Table.Th>
                <Table.Th>Campaigns</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id} data-testid="collection">
                  <Table.Td>
                    <Anchor component={Link} to={`/collections/edit/${c.id}`} fw={600}>
                      {c.name}
                    </Anchor>
                    {c.description && (
                      <Text size="xs" c="dimmed" lineClamp={1} maw={320}>
                        {c.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>/collections/{c.slug}</Table.Td>
                  <Table.Td>{shownIn(c)}</Table.Td>
                  <Table.Td>
                    {plural(c.campaigns_count, 'campaign')}
                    <Text size="xs" c="dimmed">
                      {c.featured_count === 0 ? 'None featured' : `${c.featured_count} featured`}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="light" component={Link} to={`/collections/edit/${c.id}`}>
                        {canEdit ? 'Edit' : 'View'}
                      </Button>
                      <Button size="xs" variant="subtle" component={Link} to={`/collections/${c.id}/featured-campaigns`}>
                        Featured
                      </Button>
                      {canEdit && (
                        <Button size="xs" color="red" variant="subtle" onClick={() => setDeleting(c)}>
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
        remove={async (id) => (await deleteCollection(api, id)).message}
        queryKey={COLLECTIONS_KEY}
      />
    </Stack>
  );
}
