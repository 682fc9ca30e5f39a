import { Anchor, Button, Card, Group, Progress, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { can } from '../access/rules';
import { BULK_STATUSES, type BulkStatus } from '../api/bulk';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { plural } from '../format/plural';
import { useSessionUser } from '../session/useSessionUser';
import { BULK_IMPORT_PATH, BULK_LIST_PATH, STATUS_COLORS, statusLabel, summarize } from './labels';
import { bulkJobsQuery, bulkUploadsQuery } from './queries';
import { LabelBadge } from '../components/LabelBadge';

/**
 * `/bulk-campaigns`: the seller's bulk uploads (each import of artworks onto a template campaign), newest first with
 * their progress, each leading to its records; the way to a new import; and, when there are any, the background
 * campaign jobs.
 */
export function BulkCampaignsPage() {
  const user = useSessionUser();
  const canImport = can(user, 'update_campaign');
  const { q, search, debounced, page, setPage } = useListSearch();
  const uploads = useQuery(bulkUploadsQuery({ q: debounced, page }));
  const empty = uploads.isSuccess && uploads.data.total === 0 && debounced === '';

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz="h2">
          Bulk campaigns
        </Title>
        <Group gap="sm">
          <Button variant="light" component={Link} to={BULK_LIST_PATH}>
            All records
          </Button>
          {canImport && (
            <Button leftSection={<IconUpload size={16} />} component={Link} to={BULK_IMPORT_PATH}>
              Import artworks
            </Button>
          )}
        </Group>
      </Group>
      {empty ? (
        <Card withBorder radius="lg" data-testid="bulk-uploads-empty">
          <Stack gap="xs" align="flex-start">
            <Text fw={600}>No bulk uploads yet</Text>
            <Text size="sm" c="dimmed">
              A bulk upload puts each of your artworks on a copy of a template campaign: one new campaign per artwork.
            </Text>
            {canImport && (
              <Button component={Link} to={BULK_IMPORT_PATH} size="sm">
                Import artworks
              </Button>
            )}
          </Stack>
        </Card>
      ) : (
        <>
          <TextInput
            placeholder="Search by upload name"
            aria-label="Search bulk uploads"
            value={q}
            onChange={(event) => search(event.currentTarget.value)}
            w={300}
          />
          <PagedListCard list={uploads} loadingLabel="Loading bulk uploads">
            {(rows) => (
              <Table verticalSpacing="sm" horizontalSpacing="lg" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Upload</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th>Template campaign</Table.Th>
                    <Table.Th w={260}>Progress</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((u) => {
                    const { done, failed, total } = summarize(u);
                    return (
                      <Table.Tr key={u.id} data-testid="bulk-upload-row">
                        <Table.Td>
                          <Anchor component={Link} to={`${BULK_LIST_PATH}?bulk_upload_id=${u.id}`} title={u.name} lineClamp={2} style={{ wordBreak: 'break-word' }}>
                            {u.name}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{new Date(u.created_at).toLocaleString()}</Table.Td>
                        <Table.Td>
                          {u.template_campaign_id !== null && (
                            <Anchor component={Link} to={`/campaigns/edit/${u.template_campaign_id}`}>
                              #{u.template_campaign_id}
                            </Anchor>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Stack gap={4}>
                            <Text size="sm">
                              {done} of {plural(total, 'record')} completed{failed > 0 ? `, ${failed} failed` : ''}
                            </Text>
                            <Progress.Root size="sm" aria-label={`Progress of ${u.name}`}>
                              <Progress.Section value={total ? (100 * done) / total : 0} color="green" />
                              <Progress.Section value={total ? (100 * failed) / total : 0} color="red" />
                            </Progress.Root>
                          </Stack>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            )}
          </PagedListCard>
          <ListPager page={page} lastPage={uploads.data?.last_page} onChange={setPage} />
        </>
      )}
      <CampaignJobs />
    </Stack>
  );
}

/** The background campaign jobs (a campaign made from an origin campaign with a new artwork), shown once there are any. */
function CampaignJobs() {
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [status, setStatus] = useState<BulkStatus | null>(null);
  const list = useQuery(bulkJobsQuery({ q: debounced, page, status: status ?? undefined }));
  if (list.isSuccess && list.data.total === 0 && debounced === '' && status === null) return null;

  return (
    <Stack gap="sm">
      <Title order={2} fz="h4">
        Campaign jobs
      </Title>
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
          data={BULK_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
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
                    <LabelBadge color={STATUS_COLORS[j.status]}>
                      {statusLabel(j.status)}
                    </LabelBadge>
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
