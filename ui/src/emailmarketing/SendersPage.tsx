import { Button, Card, Group, Modal, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import {
  createSender,
  deleteSender,
  senderStatus,
  senders,
  storeDomains,
  updateSender,
  type Sender,
  type SenderStatus,
} from '../api/emailMarketing';
import { confirmText } from '../feedback/confirm';
import { SenderForm } from './SenderForm';
import { LabelBadge } from '../components/LabelBadge';
import { SENDER_STATUS_LABELS } from './labels';

const KEY = ['email-marketing', 'senders'];

function toastError(error: unknown) {
  notifications.show({ color: 'red', message: isApiError(error) ? error.message : String(error) });
}

function ConfirmDelete({ sender, onClose }: { sender: Sender | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const text = confirmText();
  const remove = useMutation({
    mutationFn: (id: number) => deleteSender(api, id),
    onSuccess: async ({ message }) => {
      notifications.show({ color: 'green', message });
      onClose();
      await queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: toastError,
  });
  return (
    <Modal opened={sender !== null} onClose={onClose} title={text.title}>
      <Stack gap="md">
        <Text>
          {sender?.email}: {text.text}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {text.cancelLabel}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => sender && remove.mutate(sender.id)}>
            {text.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A sender's domain status in words. */
function SenderBadge({ status }: { status: SenderStatus | undefined }) {
  if (!status) return null;
  return (
    <LabelBadge color={status.verified ? 'green' : 'yellow'} code={status.status}>
      {SENDER_STATUS_LABELS[status.status]}
    </LabelBadge>
  );
}

/** `/email-marketing/senders`: the account's senders, with create, rename, delete and domain status. */
export function SendersPage() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [renaming, setRenaming] = useState<Sender | null>(null);
  const [deleting, setDeleting] = useState<Sender | null>(null);
  const [statuses, setStatuses] = useState<Record<number, SenderStatus>>({});
  const list = useQuery({ queryKey: [...KEY, page], queryFn: ({ signal }) => senders(api, page, signal) });
  const domains = useQuery({ queryKey: ['email-marketing', 'domains'], queryFn: ({ signal }) => storeDomains(api, signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  const status = useMutation({
    mutationFn: (id: number) => senderStatus(api, id),
    onSuccess: (s) => setStatuses((all) => ({ ...all, [s.id]: s })),
    onError: toastError,
  });

  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} fz="h2">
        Senders
      </Title>
      <Card withBorder radius="lg" padding={0}>
        {list.isSuccess && list.data.total === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            Oops! No entries found.
          </Text>
        ) : (
          <Table verticalSpacing="sm" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Domain status</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.data.map((s) => (
                <Table.Tr key={s.id} data-testid="sender">
                  <Table.Td>{s.name}</Table.Td>
                  <Table.Td>{s.email}</Table.Td>
                  <Table.Td>
                    {statuses[s.id] ? (
                      <SenderBadge status={statuses[s.id]} />
                    ) : (
                      <Button size="xs" variant="subtle" onClick={() => status.mutate(s.id)}>
                        Check
                      </Button>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button size="xs" variant="light" onClick={() => setRenaming(s)}>
                        Rename
                      </Button>
                      <Button size="xs" color="red" variant="subtle" onClick={() => setDeleting(s)}>
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {list.data && list.data.last_page > 1 && (
        <Pagination total={list.data.last_page} value={page} onChange={setPage} />
      )}
      <Card withBorder radius="lg" padding="lg" maw={520}>
        <Title order={2} fz="h4" mb="md">
          New sender
        </Title>
        <SenderForm
          domains={domains.data ?? []}
          submitLabel="Create sender"
          onSubmit={async (values) => {
            const { message } = await createSender(api, {
              store_domain_id: values.store_domain_id ?? 0,
              username: values.username,
              name: values.name,
            });
            notifications.show({ color: 'green', message });
            await refresh();
          }}
        />
      </Card>
      <Modal opened={renaming !== null} onClose={() => setRenaming(null)} title="Rename sender">
        {renaming && (
          <SenderForm
            domain={renaming.domain}
            initial={{ username: renaming.username, name: renaming.name }}
            submitLabel="Save"
            onSubmit={async (values) => {
              const { message } = await updateSender(api, renaming.id, { username: values.username, name: values.name });
              notifications.show({ color: 'green', message });
              setRenaming(null);
              await refresh();
            }}
          />
        )}
      </Modal>
      <ConfirmDelete sender={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
