import { Anchor, Badge, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { BULK_STATUSES, type BulkStatus } from '../api/bulk';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { BULK_LIST_PATH, STATUS_COLORS } from './labels';
import { bulkJobsQuery } from './queries';

/**
 * `/bulk-campaigns`: the background campaign jobs (each a campaign made from an origin campaign with a new artwork),
 * searchable and filtered by status, refreshing while jobs wait; the worker's scheduler picks them up.
 */
export function BulkCampaignsPage() {
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [status, setStatus] = useState<BulkStatus | null>(null);
  const list = useQuery(bulkJobsQuery({ q: debounced, page, status: status ?? undefined }));

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz="h2">
          Bulk campaigns
        </Title>
        <Button variant="light" component={Link} to={BULK_LIST_PATH}>
          Multi print spaces
        </Button>
      </Group>
      <Group gap="sm">
        <TextInput
          placeholder="Search by name or collection"
          aria-label="Search bulk campaigns"
          value={q}
          onChange={(event) => search(event.currentTarget.value)}
          w={300}
        />
        <Select
          placeholder="All statuses"
          aria-label="Status"
          data={[...BULK_STATUSES]}
          value={status}
          onChange={resetting(setStatus)}
          clearable
          w={200}
        />
      </Group>
      <PagedListCard list={list} loadingLabel="Loading bulk campaigns">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="lg" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Job</Table.Th>
                <Table.Th>Campaign name</Table.Th>
                <Table.Th>Collection</Table.Th>
                <Table.Th>Origin</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Log</Table.Th>
                <Table.Th>Campaign</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((j) => (
                <Table.Tr key={j.id} data-testid="bulk-job-row">
                  <Table.Td>#{j.id}</Table.Td>
                  <Table.Td>{`${j.prefix}${j.campaign_name}${j.suffix}`}</Table.Td>
                  <Table.Td>{j.collection}</Table.Td>
                  <Table.Td>{j.campaign_id !== null ? `#${j.campaign_id}` : ''}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={STATUS_COLORS[j.status]}>
                      {j.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c={j.status === 'failed' ? 'red' : undefined}>
                      {j.message}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {j.new_campaign_id !== null && (
                      <Anchor component={Link} to={`/campaigns/edit/${j.new_campaign_id}`}>
                        #{j.new_campaign_id}
                      </Anchor>
                    )}
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
