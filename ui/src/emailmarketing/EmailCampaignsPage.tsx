import { Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { campaigns } from '../api/emailMarketing';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { CAMPAIGNS_KEY, STATUS_COLORS } from './campaignSchemas';
import { LabelBadge } from '../components/LabelBadge';
import { CAMPAIGN_STATUS_LABELS } from './labels';

/** How often the list is read again while one of its campaigns is sending. */
const LIST_POLL_MS = 2000;

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...(['draft', 'sending', 'sent', 'failed'] as const).map((value) => ({ value, label: CAMPAIGN_STATUS_LABELS[value] })),
];

/** `/email-marketing/campaigns`: the stores' e-mail campaigns with their status and counts. */
export function EmailCampaignsPage() {
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [status, setStatus] = useState('');
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
          onChange={(e) => search(e.currentTarget.value)}
          w={320}
        />
        <Select
          aria-label="Status"
          data={STATUS_OPTIONS}
          value={status}
          allowDeselect={false}
          onChange={(v) => resetting(setStatus)(v ?? '')}
          w={180}
        />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading email campaigns">
        {(rows) => (
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
              {rows.map((c) => (
                <Table.Tr key={c.id} data-testid="email-campaign">
                  <Table.Td>
                    <Text fw={500}>{c.name}</Text>
                    <Text size="xs" c="dimmed">
                      {c.subject}
                    </Text>
                  </Table.Td>
                  <Table.Td>{c.store_name}</Table.Td>
                  <Table.Td>
                    <LabelBadge color={STATUS_COLORS[c.status]} code={c.status}>
                      {CAMPAIGN_STATUS_LABELS[c.status]}
                    </LabelBadge>
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
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
    </Stack>
  );
}
