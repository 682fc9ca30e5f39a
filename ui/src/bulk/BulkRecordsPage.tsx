import {
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, isApiError } from '../api';
import {
  BULK_QUALITIES,
  BULK_STATUSES,
  BULK_TYPES,
  artworksOf,
  bulkAction,
  type BulkAction,
  type BulkActionResult,
  type BulkQuality,
  type BulkStatus,
  type BulkType,
} from '../api/bulk';
import { ListPager, PagedListCard } from '../components/PagedList';
import { useListSearch } from '../components/useListSearch';
import { BULK_KEY, bulkListQuery, bulkUploadQuery } from './queries';
import { can } from '../access/rules';
import { plural } from '../format/plural';
import { useSessionUser } from '../session/useSessionUser';
import { BULK_IMPORT_PATH, STATUS_COLORS, TYPE_LABELS, artworkName, codeLabel, statusLabel, summarize } from './labels';
import { LabelBadge } from '../components/LabelBadge';
import { QUALITY_LOOK } from '../print/quality';

const ACTION_LABELS: Readonly<Record<BulkAction | 'start-all' | 'stop-all', string>> = {
  start: 'Start',
  stop: 'Stop',
  retry: 'Retry',
  remove: 'Remove',
  'start-all': 'Start all',
  'stop-all': 'Stop all',
};

/** The progress of one bulk upload: how many of its records are done, failed or still at work. */
function UploadSummary({ id }: { id: number }) {
  const upload = useQuery(bulkUploadQuery(id));
  if (!upload.isSuccess) return null;
  const { done, failed, total } = summarize(upload.data);
  const low = upload.data.qualities?.low ?? 0;
  const normal = upload.data.qualities?.normal ?? 0;
  return (
    <Card withBorder radius="lg" data-testid="bulk-upload-summary">
      <Stack gap={6}>
        <Group justify="space-between">
          <Text fw={600}>{upload.data.name}</Text>
          <Text size="sm" c="dimmed">
            {done} of {total} completed{failed > 0 ? `, ${failed} failed` : ''}
          </Text>
        </Group>
        {low + normal > 0 && (
          <Text size="sm" c={low > 0 ? 'red' : 'yellow.8'} data-testid="bulk-upload-resolution">
            Print resolution: {low > 0 ? `${plural(low, 'record')} low` : ''}
            {low > 0 && normal > 0 ? ', ' : ''}
            {normal > 0 ? `${plural(normal, 'record')} normal` : ''}
          </Text>
        )}
        <Progress.Root size="lg" aria-label="Bulk upload progress">
          <Progress.Section value={total ? (100 * done) / total : 0} color="green" />
          <Progress.Section value={total ? (100 * failed) / total : 0} color="red" />
        </Progress.Root>
      </Stack>
    </Card>
  );
}

/**
 * `/bulk-campaigns/multi-print-spaces`: the seller's bulk records with their query (search, status and type
 * filters, 15 a page, newest first), batch actions on the ticked rows, start-all and stop-all, and, for an import
 * (`?bulk_upload_id=`), its progress. It refreshes by itself while records are at work: this is the worker table.
 */
export function BulkRecordsPage() {
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const bulkUploadId = Number(params.get('bulk_upload_id')) || undefined;
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [status, setStatus] = useState<BulkStatus[]>([]);
  const [type, setType] = useState<BulkType | null>(null);
  const [quality, setQuality] = useState<BulkQuality[]>([]);
  const canChange = can(useSessionUser(), 'update_campaign');
  const [selected, setSelected] = useState<number[]>([]);
  const list = useQuery(bulkListQuery({ q: debounced, page, status, type: type ?? undefined, bulkUploadId, quality }));

  const act = useMutation({
    mutationFn: ({ action, ids }: { action: BulkAction | 'start-all' | 'stop-all'; ids?: number[] }) => bulkAction(api, action, ids),
    onSuccess: async (results: BulkActionResult[], { action }) => {
      const done = results.filter((r) => r.ok).length;
      const refused = results.find((r) => !r.ok);
      notifications.show({
        color: refused ? 'yellow' : 'green',
        message:
          results.length === 0
            ? `${ACTION_LABELS[action]}: no record could be ${action.startsWith('start') ? 'started' : 'stopped'}.`
            : `${ACTION_LABELS[action]}: ${done} of ${plural(results.length, 'record')}.${refused ? ` #${refused.id}: ${refused.message ?? ''}` : ''}`,
      });
      setSelected([]);
      await queryClient.invalidateQueries({ queryKey: BULK_KEY });
    },
    onError: (error) => notifications.show({ color: 'red', message: isApiError(error) ? error.message : String(error) }),
  });

  const rows = list.data?.data ?? [];
  const allTicked = rows.length > 0 && rows.every((r) => selected.includes(r.id));
  const toggle = (id: number) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz="h2">
          Bulk campaigns: multi print spaces
        </Title>
        {canChange && (
          <Button leftSection={<IconUpload size={16} />} component={Link} to={BULK_IMPORT_PATH}>
            Import artworks
          </Button>
        )}
      </Group>
      {bulkUploadId !== undefined && <UploadSummary id={bulkUploadId} />}
      <Group gap="sm" align="flex-end">
        <TextInput
          placeholder="Search by id, artwork or template"
          aria-label="Search bulk records"
          value={q}
          onChange={(event) => search(event.currentTarget.value)}
          w={280}
        />
        <MultiSelect
          placeholder={status.length ? undefined : 'All statuses'}
          aria-label="Status"
          data={BULK_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
          value={status}
          onChange={resetting(setStatus)}
          clearable
          w={260}
        />
        <Select
          placeholder="Both types"
          aria-label="Type"
          data={BULK_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
          value={type}
          onChange={resetting(setType)}
          clearable
          w={200}
        />
        <MultiSelect
          placeholder={quality.length ? undefined : 'Any resolution'}
          aria-label="Print resolution"
          data={BULK_QUALITIES.map((v) => ({ value: v, label: `${QUALITY_LOOK[v].label} resolution` }))}
          value={quality}
          onChange={resetting((v: string[]) => setQuality(v as BulkQuality[]))}
          clearable
          w={260}
        />
      </Group>
      {canChange && (
        <Group gap="xs">
          {(['start', 'stop', 'retry', 'remove'] as const).map((action) => (
            <Button
              key={action}
              size="xs"
              variant="light"
              color={action === 'remove' ? 'red' : undefined}
              disabled={selected.length === 0}
              loading={act.isPending && act.variables.action === action}
              onClick={() => act.mutate({ action, ids: selected })}
            >
              {ACTION_LABELS[action]} ({selected.length})
            </Button>
          ))}
          <Button size="xs" variant="default" onClick={() => act.mutate({ action: 'start-all' })}>
            {ACTION_LABELS['start-all']}
          </Button>
          <Button size="xs" variant="default" onClick={() => act.mutate({ action: 'stop-all' })}>
            {ACTION_LABELS['stop-all']}
          </Button>
        </Group>
      )}
      <PagedListCard list={list} loadingLabel="Loading bulk records">
        {(rows) => (
          <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover data-testid="bulk-worker-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select all rows"
                    checked={allTicked}
                    onChange={() => setSelected(allTicked ? [] : rows.map((r) => r.id))}
                  />
                </Table.Th>
                <Table.Th>Record</Table.Th>
                <Table.Th>Template</Table.Th>
                <Table.Th>Artwork</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Resolution</Table.Th>
                <Table.Th>Worker step</Table.Th>
                <Table.Th>Message</Table.Th>
                <Table.Th>Campaign</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id} data-testid="bulk-row" data-status={r.status}>
                  <Table.Td>
                    <Checkbox aria-label={`Select record ${r.id}`} checked={selected.includes(r.id)} onChange={() => toggle(r.id)} />
                  </Table.Td>
                  <Table.Td>
                    #{r.id} <Text span size="xs" c="dimmed">{TYPE_LABELS[r.type]}</Text>
                  </Table.Td>
                  <Table.Td>{r.template_campaign_name ?? `#${r.template_campaign_id ?? '?'}`}</Table.Td>
                  <Table.Td maw={220}>
                    <Text size="sm" truncate="end" title={artworksOf(r.designs).join(', ') || r.designs}>
                      {artworksOf(r.designs).map(artworkName).join(', ') || r.designs}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <LabelBadge color={STATUS_COLORS[r.status]}>
                      {statusLabel(r.status)}
                    </LabelBadge>
                  </Table.Td>
                  <Table.Td>
                    {r.quality && (
                      <LabelBadge color={QUALITY_LOOK[r.quality].color} data-testid="bulk-quality">
                        {QUALITY_LOOK[r.quality].label}
                      </LabelBadge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {r.step && (
                      <Tooltip label={r.step}>
                        <Text size="xs">{codeLabel(r.step)}</Text>
                      </Tooltip>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c={r.status === 'failed' ? 'red' : undefined} title={codeLabel(r.message) === r.message ? undefined : r.message}>
                      {codeLabel(r.message)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {r.campaign_id !== null && (
                      <Anchor component={Link} to={`/campaigns/edit/${r.campaign_id}`}>
                        #{r.campaign_id}
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
