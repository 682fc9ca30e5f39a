import {
  Alert,
  Button,
  Card,
  FileInput,
  Group,
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
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, isApiError } from '../api';
import { createBulkImport, designsOf } from '../api/bulk';
import { printSpacesOf } from '../api/campaigns';
import { campaignListQuery, campaignQuery } from '../campaigns/queries';
import { uploadFile } from '../uploads/uploader';
import { ArtworkDropZone } from './ArtworkDropZone';
import { BULK_KEY } from './queries';
import { ARTWORK_TYPES, BULK_LIST_PATH, importLines, runPool } from './labels';

/** Artworks uploaded at once. */
const PARALLEL_UPLOADS = 4;

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

  const campaigns = useQuery(campaignListQuery({ q: debounced, page: 1 }));
  const template = useQuery({ ...campaignQuery(Number(templateId)), enabled: Number(templateId) > 0 });
  const firstProduct = template.data?.products[0];
  const spaces = firstProduct ? printSpacesOf(firstProduct).map((s) => s.name) : [];
  const campaignOptions = (campaigns.data?.data ?? []).map((c) => ({ value: String(c.id), label: `${c.name} (#${c.id})` }));
  if (templateId && template.data && !campaignOptions.some((o) => o.value === templateId)) {
    campaignOptions.unshift({ value: templateId, label: `${template.data.name} (#${templateId})` });
  }

  const setStage = (i: number, stage: FileState['stage'], message?: string) =>
    setStates((s) => s.map((f, j) => (j === i ? { ...f, stage, message } : f)));

  async function start() {
    setError(null);
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
    const uploaded: (string | null)[] = await runPool(files, PARALLEL_UPLOADS, async (file, i) => {
      try {
        const upload = await uploadFile(api, file, { filePath: 'bulk', onProgress: (stage) => setStage(i, stage) });
        setStage(i, 'done');
        return upload.filePath;
      } catch (e) {
        setStage(i, 'failed', e instanceof Error ? e.message : String(e));
        return null;
      }
    });
    const artworks = [...uploaded.filter((key): key is string => key !== null), ...pasted];
    if (artworks.length === 0) {
      setBusy(false);
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
      notifications.show({ color: 'green', message: `${result.records.length} records sent to the worker.` });
      void navigate(`${BULK_LIST_PATH}?bulk_upload_id=${result.bulk_upload?.id ?? ''}`);
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
            }}
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
            onRefused={(names) => setError(`Not an artwork or a CSV of URLs, left out: ${names.join(', ')}`)}
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
              {files.length} artwork {files.length === 1 ? 'file' : 'files'} chosen
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
