import { Button, Card, Code, FileInput, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import { importSubscribers, subscribers, unsubscribe } from '../api/emailMarketing';
import { FormError } from '../components/FormError';
import { StorePicker } from './StorePicker';
import { LabelBadge } from '../components/LabelBadge';
import { SUBSCRIBER_STATUS_LABELS } from './labels';
import { label } from '../format/labels';

/** List fetches wait 200 ms after the last keystroke. */
const SEARCH_DEBOUNCE_MS = 200;

const KEY = ['email-marketing', 'subscribers'];

function ImportCard() {
  const queryClient = useQueryClient();
  const [storeId, setStoreId] = useState<number | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const run = useMutation({
    mutationFn: async () => importSubscribers(api, storeId ?? 0, await file!.text()),
    onSuccess: async ({ message, data }) => {
      setError(null);
      setProblems(data.problems);
      setFile(null);
      notifications.show({ color: 'green', message });
      await queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (e) => setError(isApiError(e) ? e.message : String(e)),
  });
  return (
    <Card withBorder radius="lg" padding="lg">
      <Title order={2} fz="h4" mb="md">
        Import CSV
      </Title>
      <Stack gap="sm" maw={520}>
        <StorePicker value={storeId} onChange={setStoreId} />
        <FileInput
          label="CSV file"
          description={
            <>
              A header row with <Code>email</Code>, and optionally <Code>first_name</Code> and <Code>last_name</Code>.
            </>
          }
          accept=".csv,text/csv"
          value={file}
          onChange={setFile}
          clearable
        />
        <Button w="fit-content" disabled={!file || storeId === null} loading={run.isPending} onClick={() => run.mutate()}>
          Import
        </Button>
        <FormError message={error} />
        {problems.map((p) => (
          <Text key={p} size="xs" c="dimmed">
            {p}
          </Text>
        ))}
      </Stack>
    </Card>
  );
}

/** `/email-marketing/subscribers`: the stores' subscribers, searchable, with CSV import and unsubscribe. */
export function SubscribersPage() {
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...KEY, debounced, page],
    queryFn: ({ signal }) => subscribers(api, { q: debounced, page }, signal),
  });
  const unsub = useMutation({
    mutationFn: (id: number) => unsubscribe(api, id),
    onSuccess: async ({ message }) => {
      notifications.show({ color: 'green', message });
      await queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (e) => notifications.show({ color: 'red', message: isApiError(e) ? e.message : String(e) }),
  });
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} fz="h2">
        Subscribers
      </Title>
      <TextInput
        placeholder="Search by email or name"
        value={q}
        onChange={(e) => {
          setQ(e.currentTarget.value);
          setPage(1);
        }}
        maw={360}
      />
      <Card withBorder radius="lg" padding={0}>
        {list.isSuccess && list.data.total === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            Oops! No entries found.
          </Text>
        ) : (
          <Table verticalSpacing="sm" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.data.map((s) => (
                <Table.Tr key={s.id} data-testid="subscriber">
                  <Table.Td>{s.email}</Table.Td>
                  <Table.Td>{`${s.first_name} ${s.last_name}`.trim()}</Table.Td>
                  <Table.Td>
                    <LabelBadge color={s.status === 'subscribed' ? 'green' : 'gray'} code={s.status}>{SUBSCRIBER_STATUS_LABELS[s.status]}</LabelBadge>
                  </Table.Td>
                  <Table.Td title={s.source}>{label({}, s.source)}</Table.Td>
                  <Table.Td>
                    <Group justify="flex-end">
                      {s.status === 'subscribed' && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => unsub.mutate(s.id)}>
                          Unsubscribe
                        </Button>
                      )}
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
      <ImportCard />
    </Stack>
  );
}
