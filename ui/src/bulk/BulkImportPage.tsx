import {
  Alert,
  Anchor,
  Button,
  Card,
  FileInput,
  Group,
  List,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, isApiError } from '../api';
import { createBulkImport, designsOf, searchBulkTemplates } from '../api/bulk';
import { printSpacesOf } from '../api/campaigns';
import { campaignQuery } from '../campaigns/queries';
import { plural } from '../format/plural';
import { uploadFile } from '../uploads/uploader';
import { ArtworkDropZone } from './ArtworkDropZone';
import { BULK_KEY } from './queries';
import { ARTWORK_TYPES, BULK_LIST_PATH, importLines, runPool } from './labels';

/** Artworks uploaded at once. */
const PARALLEL_UPLOADS = 4;

/** A file left out of an import and why. */
type Skipped = { name: string; reason: string };

type FileState = { name: string; stage: 'waiting' | 'preparing' | 'uploading' | 'checking' | 'done' | 'failed'; message?: string };

const STAGE_PROGRESS: Readonly<Record<FileState['stage'], number>> = {
  waiting: 0,
  preparing: 10,
  uploading: 40,
  checking: 80,
  done: 100,
  failed: 100,
};

/**
 * `/bulk-campaigns/multi-print-spaces/import/{id?}`: the seller picks the template campaign (id preselects it) and
 * the print space, drops artworks (uploaded in parallel, each becoming a record) or pastes artwork URLs (one per line,
 * or the first column of a CSV), and the records go to the worker as one bulk upload.
 */
export function BulkImportPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const [templateId, setTemplateId] = useState<string | null>(params.id ?? null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 200);
  const [printSpace, setPrintSpace] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [urls, setUrls] = useState('');
  const [states, setStates] = useState<FileState[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState<Skipped[]>([]);
  const [sent, setSent] = useState<{ records: number; skipped: Skipped[]; uploadId: number | null } | null>(null);

  const campaigns = useQuery({
    queryKey: [...BULK_KEY, 'templates', debounced],
    queryFn: ({ signal }) => searchBulkTemplates(api, debounced, signal),
    placeholderData: keepPreviousData,
  });
  const template = useQuery({ ...campaignQuery(Number(templateId)), enabled: Number(templateId) > 0 });
  const firstProduct = template.data?.products[0];
  const spaces = firstProduct ? printSpacesOf(firstProduct).map((s) => s.name) : [];
  const campaignOptions = (campaigns.data ?? []).map((c) => ({
    value: String(c.id),
    label: `${c.name} (#${c.id})${c.used ? ', template' : c.made ? ', made by bulk' : ''}`,
  }));
  if (templateId && template.data && !campaignOptions.some((o) => o.value === templateId)) {
    campaignOptions.unshift({ value: templateId, label: `${template.data.name} (#${templateId})` });
  }

  const setStage = (i: number, stage: FileState['stage'], message?: string) =>
    setStates((s) => s.map((f, j) => (j === i ? { ...f, stage, message } : f)));

  async function start() {
    setError(null);
    setSent(null);
    if (!templateId) {
      setError('Choose the template campaign.');
      return;
    }
    const pasted = importLines(urls);
    if (files.length === 0 && pasted.length === 0) {
      setError('Choose artwork files or paste artwork URLs.');
      return;
    }
    setBusy(true);
    setStates(files.map((f) => ({ name: f.name, stage: 'waiting' })));
    const reasons: string[] = [];
    const uploaded: (string | null)[] = await runPool(files, PARALLEL_UPLOADS, async (file, i) => {
      try {
        const upload = await uploadFile(api, file, { filePath: 'bulk', onProgress: (stage) => setStage(i, stage) });
        setStage(i, 'done');
        return upload.filePath;
      } catch (e) {
        reasons[i] = e instanceof Error ? e.message : String(e);
        setStage(i, 'failed', reasons[i]);
        return null;
      }
    });
    const artworks = [...uploaded.filter((key): key is string => key !== null), ...pasted];
    const skipped: Skipped[] = [
      ...refused,
      ...files.flatMap((f, i) => (uploaded[i] === null ? [{ name: f.name, reason: reasons[i] ?? 'Not uploaded.' }] : [])),
    ];
    if (artworks.length === 0) {
      setBusy(false);
      setSent({ records: 0, skipped, uploadId: null });
      setError('No artwork was uploaded.');
      return;
    }
    try {
      const result = await createBulkImport(api, {
        template_campaign_id: Number(templateId),
        name: name.trim() || `Import of ${artworks.length} artworks`,
        records: artworks.map((a) => designsOf(a, printSpace ?? undefined)),
      });
      await queryClient.invalidateQueries({ queryKey: BULK_KEY });
      const uploadId = result.bulk_upload?.id ?? null;
      if (skipped.length > 0) {
        // Stay: the seller reads which files were left out and why, then opens the import.
        setSent({ records: result.records.length, skipped, uploadId });
        return;
      }
      notifications.show({ color: 'green', message: `${plural(result.records.length, 'record')} sent to the worker.` });
      void navigate(`${BULK_LIST_PATH}?bulk_upload_id=${uploadId ?? ''}`);
    } catch (e) {
      setError(isApiError(e) ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="lg" maw={900}>
      <Title order={1} fz="h2">
        Import artworks
      </Title>
      <Card withBorder radius="lg">
        <Stack gap="md">
          <Select
            label="Template campaign"
            placeholder="Search your campaigns"
            searchable
            data={campaignOptions}
            value={templateId}
            onChange={(v) => {
              setTemplateId(v);
              setPrintSpace(null);
              if (v) setError(null);
            }}
            filter={({ options }) => options}
            searchValue={search}
            onSearchChange={setSearch}
            nothingFoundMessage="No campaign found"
          />
          <Select
            label="Print space"
            description="Where each artwork goes; left empty, the print space of the template's first design."
            placeholder="First design's print space"
            data={spaces}
            value={printSpace}
            onChange={setPrintSpace}
            clearable
            disabled={spaces.length === 0}
          />
          <TextInput label="Name of this import" placeholder="Import of N artworks" value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <ArtworkDropZone
            onArtworks={(dropped) => setFiles((current) => [...current, ...dropped])}
            onUrlList={(text) => setUrls((current) => (current.trim() === '' ? text : `${current.trimEnd()}\n${text}`))}
            onRefused={(names) =>
              setRefused((current) => [...current, ...names.map((name) => ({ name, reason: 'Not an artwork (PNG, JPEG or WebP) or a CSV of URLs.' }))])
            }
          />
          <FileInput
            label="Artworks"
            placeholder="PNG, JPEG or WebP files"
            multiple
            accept={ARTWORK_TYPES.join(',')}
            value={files}
            onChange={setFiles}
            clearable
          />
          {files.length > 0 && (
            <Text size="sm" c="dimmed">
              {plural(files.length, 'artwork file')} chosen
            </Text>
          )}
          <Textarea
            label="Or artwork URLs"
            description="One per line, or a CSV whose first column is the artwork's file URL (your uploads)."
            autosize
            minRows={2}
            value={urls}
            onChange={(e) => setUrls(e.currentTarget.value)}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {refused.length > 0 && !sent && (
            <Text size="sm" c="yellow.8" data-testid="bulk-refused">
              Left out (not an artwork or a CSV of URLs): {refused.map((f) => f.name).join(', ')}
            </Text>
          )}
          {sent && <SkippedReport {...sent} />}
          <Group justify="flex-end">
            <Button onClick={() => void start()} loading={busy}>
              Upload and create records
            </Button>
          </Group>
        </Stack>
      </Card>
      {states.length > 0 && (
        <Card withBorder radius="lg" padding={0}>
          <Table verticalSpacing="xs" horizontalSpacing="md" data-testid="bulk-upload-files">
            <Table.Tbody>
              {states.map((f, i) => (
                <Table.Tr key={`${f.name}-${i}`}>
                  <Table.Td>{f.name}</Table.Td>
                  <Table.Td w={220}>
                    <Progress value={STAGE_PROGRESS[f.stage]} color={f.stage === 'failed' ? 'red' : f.stage === 'done' ? 'green' : 'blue'} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c={f.stage === 'failed' ? 'red' : 'dimmed'}>
                      {f.message ?? f.stage}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Card>
      )}
    </Stack>
  );
}

/** What an import sent and every file it left out, with the reason. */
function SkippedReport({ records, skipped, uploadId }: { records: number; skipped: Skipped[]; uploadId: number | null }) {
  if (skipped.length === 0) return null;
  return (
    <Alert color="yellow" role="status" data-testid="bulk-skipped" title={`${plural(skipped.length, 'file')} skipped`}>
      <Stack gap={6}>
        <Text size="sm">
          {plural(records, 'record')} sent to the worker.
          {uploadId !== null && (
            <>
              {' '}
              <Anchor component={Link} to={`${BULK_LIST_PATH}?bulk_upload_id=${uploadId}`}>
                Open the import
              </Anchor>
            </>
          )}
        </Text>
        <List size="sm" spacing={2}>
          {skipped.map((f, i) => (
            <List.Item key={`${f.name}-${i}`}>
              <Text span fw={600} size="sm">
                {f.name}
              </Text>
              : {f.reason}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Alert>
  );
}
