import { Anchor, Button, Card, Code, FileInput, Group, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileImport } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { can } from '../access/rules';
import { api, isApiError } from '../api';
import { campaignImports, importCampaigns, importReport, type CampaignImport, type ImportLineStatus, type ImportReport } from '../api/imports';
import { FormError } from '../components/FormError';
import { LabelBadge } from '../components/LabelBadge';
import { ListPager, PagedListCard } from '../components/PagedList';
import { formatDateTime } from '../format/dateTime';
import { plural } from '../format/plural';
import { useSessionUser } from '../session/useSessionUser';
import { CAMPAIGNS_KEY } from './queries';

const IMPORTS_KEY = [...CAMPAIGNS_KEY, 'imports'] as const;

/** How often an import's report refreshes while rows are still being made. */
const REPORT_REFRESH_MS = 3000;

/** What each row's status says, and its badge colour. */
const LINE_LABELS: Readonly<Record<ImportLineStatus, { label: string; color: string }>> = {
  refused: { label: 'Refused', color: 'red' },
  duplicate: { label: 'Imported before', color: 'gray' },
  pending: { label: 'Waiting', color: 'gray' },
  queued: { label: 'Being made', color: 'blue' },
  processing: { label: 'Making print files', color: 'blue' },
  completed: { label: 'Made', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  stopped: { label: 'Stopped', color: 'gray' },
};

/** The columns an imported file may have, what each holds, and an example. */
const COLUMNS: [string, string, string][] = [
  ['name', 'The campaign’s name (required).', 'Cat lovers tee'],
  ['products', 'Products of the catalogue by name or id, separated by ; — or give template_campaign.', 'T-shirt;Mug wrap'],
  ['template_campaign', 'One of your campaigns (its id or address) to copy, with its designs.', 'summer-tee'],
  ['artwork', 'One of your uploads: its key or its /api/files/ address (required).', 'u/7/designs/cat.png'],
  ['print_space', 'Where the artwork goes; empty: each product’s main print space.', 'front'],
  ['store', 'A store to sell it in (its address or id); empty: not sold yet.', 'demo'],
  ['margin', 'With a store: every size at its cost plus this margin …', '11.49'],
  ['price', '… or every size at this one price.', '24.99'],
  ['key', 'Your own id of the row; empty: made from the row. A key is imported once.', 'cat-001'],
];

/** An example file to start from. */
const EXAMPLE = 'name,products,artwork,store,margin\nCat lovers tee,T-shirt;Mug wrap,u/7/designs/cat.png,demo,11.49\n';

/** Statuses of a row still on its way. */
const UNDER_WAY: ImportLineStatus[] = ['pending', 'queued', 'processing'];

/**
 * `/campaigns/import`: a CSV or JSON file of campaigns, each row made into a campaign in the background (as bulk
 * records are), and the import's report: every row with its line and what became of it, the refused ones with why.
 * A row imported before (by its key) is not made again. `?import=ID` opens an earlier import's report.
 */
export function ImportPage() {
  const user = useSessionUser();
  const canImport = can(user, 'update_campaign');
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const shown = Number(params.get('import')) || null;
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [page, setPage] = useState(1);
  const list = useQuery({ queryKey: [...IMPORTS_KEY, page], queryFn: ({ signal }) => campaignImports(api, page, signal) });
  const report = useQuery({
    queryKey: [...IMPORTS_KEY, 'report', shown],
    queryFn: ({ signal }) => importReport(api, shown ?? 0, signal),
    enabled: shown !== null,
    refetchInterval: (q) => (q.state.data && UNDER_WAY.some((st) => (q.state.data?.counts[st] ?? 0) > 0) ? REPORT_REFRESH_MS : false),
  });

  async function send() {
    if (!file) {
      setFileError('Choose a CSV or JSON file of campaigns.');
      return;
    }
    setSending(true);
    setError(null);
    setFileError(null);
    try {
      const { message, data } = await importCampaigns(api, file, name);
      notifications.show({ color: data.counts.refused > 0 ? 'yellow' : 'green', message });
      queryClient.setQueryData([...IMPORTS_KEY, 'report', data.id], data);
      await queryClient.invalidateQueries({ queryKey: IMPORTS_KEY });
      setFile(null);
      setName('');
      setParams({ import: String(data.id) });
    } catch (e) {
      const field = isApiError(e) ? e.fieldErrors.find((f) => f.field === 'file') : undefined;
      if (field) setFileError(field.message);
      else setError(isApiError(e) ? e.message : String(e));
    } finally {
      setSending(false);
    }
  }

  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={2}>
        <Anchor component={Link} to="/campaigns" size="sm">
          ← All campaigns
        </Anchor>
        <Title order={1} fz="h2">
          Import campaigns
        </Title>
      </Stack>
      {canImport && (
        <Card withBorder radius="lg" padding="lg">
          <Stack gap="sm">
            <Text size="sm">
              A CSV file with a first row naming its columns, or a JSON list of rows with the same fields. Each row becomes a campaign, made in
              the background; you can leave this page. At most 1,000 rows a file.
            </Text>
            <Table fz="sm" verticalSpacing={4} withTableBorder data-testid="import-columns">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Column</Table.Th>
                  <Table.Th>What it holds</Table.Th>
                  <Table.Th>Example</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {COLUMNS.map(([col, what, example]) => (
                  <Table.Tr key={col}>
                    <Table.Td>
                      <Code>{col}</Code>
                    </Table.Td>
                    <Table.Td>{what}</Table.Td>
                    <Table.Td>
                      <Code>{example}</Code>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group align="flex-end">
              <FileInput
                label="File"
                placeholder="campaigns.csv"
                accept=".csv,.json,text/csv,application/json"
                value={file}
                onChange={(f) => {
                  setFile(f);
                  setFileError(null);
                }}
                error={fileError}
                w={320}
                clearable
              />
              <TextInput label="Name of the import" placeholder="The file's name" value={name} onChange={(e) => setName(e.currentTarget.value)} w={260} />
              <Button leftSection={<IconFileImport size={16} />} onClick={() => void send()} loading={sending}>
                Import
              </Button>
              <Button
                variant="subtle"
                onClick={() => {
                  const url = URL.createObjectURL(new Blob([EXAMPLE], { type: 'text/csv' }));
                  const a = document.createElement('a');
                  a.href = url;
                  a.download = 'campaigns-example.csv';
                  a.click();
                  URL.revokeObjectURL(url);
                }}
              >
                Example file
              </Button>
            </Group>
            <FormError message={error} />
          </Stack>
        </Card>
      )}
      {shown !== null && report.data && <Report report={report.data} />}
      {shown !== null && report.isError && <FormError message={report.error.message} />}
      <Title order={2} fz="h4">
        Imports
      </Title>
      <PagedListCard list={list} loadingLabel="Loading imports">
        {(rows) => <ImportsTable rows={rows} current={shown} onOpen={(id) => setParams({ import: String(id) })} />}
      </PagedListCard>
      <ListPager page={page} lastPage={list.data?.last_page} onChange={setPage} />
    </Stack>
  );
}

/** The counts of an import, as badges: "899 being made", "100 refused". */
function Counts({ counts }: { counts: CampaignImport['counts'] }) {
  return (
    <Group gap={6}>
      {(Object.keys(LINE_LABELS) as ImportLineStatus[])
        .filter((st) => (counts[st] ?? 0) > 0)
        .map((st) => (
          <LabelBadge key={st} color={LINE_LABELS[st].color} variant="light" code={st} data-testid={`count-${st}`}>
            {`${counts[st]} ${LINE_LABELS[st].label.toLowerCase()}`}
          </LabelBadge>
        ))}
    </Group>
  );
}

function ImportsTable({ rows, current, onOpen }: { rows: CampaignImport[]; current: number | null; onOpen: (id: number) => void }) {
  const user = useSessionUser();
  return (
    <Table verticalSpacing="sm" horizontalSpacing="lg" highlightOnHover>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Import</Table.Th>
          <Table.Th>Rows</Table.Th>
          <Table.Th>What became of them</Table.Th>
          <Table.Th>When</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((im) => (
          <Table.Tr key={im.id} data-testid="import-row">
            <Table.Td maw={280} style={{ overflowWrap: 'anywhere' }}>
              <Text size="sm" fw={500}>
                {im.name}
              </Text>
              {im.file_name !== im.name && (
                <Text size="xs" c="dimmed">
                  {im.file_name}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{im.rows}</Table.Td>
            <Table.Td>
              <Counts counts={im.counts} />
            </Table.Td>
            <Table.Td>{formatDateTime(im.created_at, user.timezone)}</Table.Td>
            <Table.Td ta="right">
              <Button size="xs" variant={current === im.id ? 'filled' : 'light'} onClick={() => onOpen(im.id)}>
                Report
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** An import's report: its counts and its rows, those with a problem alone unless asked for all. */
function Report({ report }: { report: ImportReport }) {
  const user = useSessionUser();
  const problems = report.lines.filter((l) => l.status === 'refused' || l.status === 'failed' || l.status === 'duplicate');
  const [onlyProblems, setOnlyProblems] = useState(problems.length > 0);
  const lines = onlyProblems ? problems : report.lines;
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="import-report">
      <Stack gap="sm">
        <Group justify="space-between">
          <Stack gap={2}>
            <Title order={2} fz="h4">
              {report.name}
            </Title>
            <Text size="sm" c="dimmed">
              {plural(report.rows, 'row')} · imported {formatDateTime(report.created_at, user.timezone)}
            </Text>
          </Stack>
          <Counts counts={report.counts} />
        </Group>
        <Switch label="Only rows with a problem" checked={onlyProblems} onChange={(e) => setOnlyProblems(e.currentTarget.checked)} />
        <Table fz="sm" verticalSpacing={4} withTableBorder data-testid="report-lines">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={70}>Line</Table.Th>
              <Table.Th w={180}>Status</Table.Th>
              <Table.Th>Campaign or reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.map((l) => (
              <Table.Tr key={`${l.line}-${l.key}`} data-testid="report-line">
                <Table.Td>{l.line}</Table.Td>
                <Table.Td>
                  <LabelBadge color={LINE_LABELS[l.status].color} variant="light" code={l.status}>
                    {LINE_LABELS[l.status].label}
                  </LabelBadge>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  {l.campaign_id !== null ? (
                    <Anchor component={Link} to={`/campaigns/edit/${l.campaign_id}`} size="sm">
                      {l.campaign_name}
                    </Anchor>
                  ) : (
                    l.message || '–'
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {lines.length === 0 && (
          <Text size="sm" c="dimmed">
            No row has a problem.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
