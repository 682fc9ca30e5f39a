import { Anchor, Badge, Button, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, isApiError } from '../api';
import { deleteStore, stores, type Store } from '../api/stores';
import { can } from '../access/rules';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { confirmText } from '../feedback/confirm';
import { useSessionUser } from '../session/useSessionUser';
import { STORES_KEY } from './keys';
import { shopURL } from './shopURL';

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
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} component={Link} to="/storefronts/edit/new">
            New store
          </Button>
        )}
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
                  <Table.Td>{s.campaigns === 1 ? '1 campaign' : `${s.campaigns} campaigns`}</Table.Td>
                  <Table.Td>
                    <Badge color={s.is_open ? 'green' : 'gray'}>{s.is_open ? 'Open' : 'Closed'}</Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" variant="light" component={Link} to={`/storefronts/edit/${s.id}`}>
                        {canEdit ? 'Edit' : 'View'}
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
      <ConfirmDelete store={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

function ConfirmDelete({ store, onClose }: { store: Store | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const text = confirmText();
  const remove = useMutation({
    mutationFn: (id: number) => deleteStore(api, id),
    onSuccess: async ({ message }) => {
      notifications.show({ color: 'green', message });
      onClose();
      await queryClient.invalidateQueries({ queryKey: STORES_KEY });
    },
    onError: (error) => notifications.show({ color: 'red', message: isApiError(error) ? error.message : String(error) }),
  });
  return (
    <Modal opened={store !== null} onClose={onClose} title={text.title}>
      <Stack gap="md">
        <Text>
          {store?.name}: {text.text}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {text.cancelLabel}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => store && remove.mutate(store.id)}>
            {text.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
