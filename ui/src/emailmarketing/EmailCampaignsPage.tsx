import { Badge, Button, Card, Group, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { campaigns } from '../api/emailMarketing';
import { CAMPAIGNS_KEY, STATUS_COLORS } from './campaignSchemas';

/** Spec §9: list fetches wait 200 ms after the last keystroke. */
const SEARCH_DEBOUNCE_MS = 200;

/** How often the list is read again while one of its campaigns is sending. */
const LIST_POLL_MS = 2000;

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  { value: 'draft', label: 'Draft' },
  { value: 'sending', label: 'Sending' },
  { value: 'sent', label: 'Sent' },
  { value: 'failed', label: 'Failed' },
];

/** `/email-marketing/campaigns`: the stores' e-mail campaigns with their status and counts. */
export function EmailCampaignsPage() {
  const [q, setQ] = useState('');
  const [status, setStatus] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...CAMPAIGNS_KEY, debounced, status, page],
    queryFn: ({ signal }) => campaigns(api, { q: debounced, status, page }, signal),
    refetchInterval: (query) => (query.state.data?.data.some((c) => c.status === 'sending') ? LIST_POLL_MS : false),
  });
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Title order={1} fz="h2">
          Email Campaigns
        </Title>
        <Button component={Link} to="/email-marketing/campaigns/new">
          New campaign
        </Button>
      </Group>
      <Group>
        <TextInput
          placeholder="Search by name or subject"
          aria-label="Search campaigns"
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setPage(1);
          }}
          w={320}
        />
        <Select
          aria-label="Status"
          data={STATUS_OPTIONS}
          value={status}
          allowDeselect={false}
          onChange={(v) => {
            setStatus(v ?? '');
            setPage(1);
          }}
          w={180}
        />
      </Group>
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
                <Table.Th>Store</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Recipients</Table.Th>
                <Table.Th ta="right">Sent</Table.Th>
                <Table.Th ta="right">Failed</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.data.map((c) => (
                <Table.Tr key={c.id} data-testid="email-campaign">
                  <Table.Td>
                    <Text fw={500}>{c.name}</Text>
                    <Text size="xs" c="dimmed">
                      {c.subject}
                    </Text>
                  </Table.Td>
                  <Table.Td>{c.store_name}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[c.status]}>{c.status}</Badge>
                  </Table.Td>
                  <Table.Td ta="right">{c.recipients}</Table.Td>
                  <Table.Td ta="right">{c.sent}</Table.Td>
                  <Table.Td ta="right">{c.failed}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      {c.status === 'draft' && (
                        <Button size="xs" variant="light" component={Link} to={`/email-marketing/campaigns/edit/${c.id}`}>
                          Edit
                        </Button>
                      )}
                      <Button size="xs" variant="subtle" component={Link} to={`/email-marketing/campaigns/view/${c.id}`}>
                        View
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      {list.data && list.data.last_page > 1 && <Pagination total={list.data.last_page} value={page} onChange={setPage} />}
    </Stack>
  );
}
