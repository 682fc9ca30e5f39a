import {
  Alert,
  Button,
  Card,
  FileButton,
  Group,
  Image,
  Modal,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconTrash, IconUpload } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, isApiError } from '../api';
import { CLIPARTS_KEY, deleteClipart, listCliparts, updateClipart, uploadClipart, type Clipart } from '../api/cliparts';
import { foldersKey, listFolders, type Folder, type FolderFilter } from '../api/folders';
import { can } from '../access/rules';
import { LabelBadge } from '../components/LabelBadge';
import { useListSearch } from '../components/useListSearch';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { FolderedGrid } from '../folders/FolderedGrid';
import { FolderSelect } from '../folders/FolderSelect';
import { useSessionUser } from '../session/useSessionUser';
import { STATUS_LOOK } from '../uploads/status';

/** What an upload may be (the bff reads the file and refuses anything else with a message). */
const ACCEPT = 'image/png,image/webp,image/svg+xml,.png,.webp,.svg';

const FORMAT_LABEL: Record<Clipart['format'], string> = { png: 'PNG', webp: 'WebP', svg: 'SVG' };

function RenameForm({ clipart, onDone }: { clipart: Clipart; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(clipart.name);
  const save = useMutation({
    mutationFn: () => updateClipart(api, clipart.id, name, clipart.folder_id),
    onSuccess: async (answer) => {
      notifications.show({ color: 'green', message: answer.message });
      await queryClient.invalidateQueries({ queryKey: CLIPARTS_KEY });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        <TextInput
          label="Name"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={save.error && (isApiError(save.error) ? save.error.fieldMessage('name') ?? save.error.message : String(save.error))}
          maxLength={100}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ClipartCard({
  clipart,
  folders,
  canEdit,
  onRename,
  onDelete,
}: {
  clipart: Clipart;
  folders: readonly Folder[];
  canEdit: boolean;
  onRename: () => void;
  onDelete: () => void;
}) {
  const queryClient = useQueryClient();
  const look = STATUS_LOOK[clipart.status];
  const move = useMutation({
    mutationFn: (folderId: number | null) => updateClipart(api, clipart.id, clipart.name, folderId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: CLIPARTS_KEY });
      await queryClient.invalidateQueries({ queryKey: foldersKey('clipart') });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  return (
    <Card withBorder radius="md" padding="sm" data-testid="clipart-card" data-status={clipart.status} data-name={clipart.name}>
      <Card.Section
        h={160}
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          background: 'repeating-conic-gradient(#f1f3f5 0% 25%, #ffffff 0% 50%) 50% / 16px 16px',
        }}
      >
        {clipart.status === 'ready' ? (
          <Image src={clipart.thumbnail_url} alt={clipart.name} h={150} w="auto" fit="contain" />
        ) : (
          <Text c="dimmed" size="sm">
            {clipart.status === 'pending' ? (clipart.format === 'svg' ? 'Drawing at print size…' : 'Checking…') : 'Refused'}
          </Text>
        )}
      </Card.Section>
      <Stack gap={6} mt="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {clipart.name}
          </Text>
          <LabelBadge color={look.color} code={clipart.status}>
            {look.label}
          </LabelBadge>
        </Group>
        <Text size="xs" c="dimmed" data-testid="clipart-meta">
          {FORMAT_LABEL[clipart.format]}
          {clipart.status === 'ready' && clipart.width && clipart.height ? ` · ${clipart.width}×${clipart.height} px` : ''}
          {clipart.format === 'svg' && clipart.status === 'ready' ? ' (drawn from the SVG)' : ''}
        </Text>
        {clipart.status === 'rejected' && (
          <Text size="xs" c="red" data-testid="clipart-message">
            {clipart.message}
          </Text>
        )}
        {canEdit && (
          <>
            <FolderSelect
              label={`Folder of ${clipart.name}`}
              folders={folders}
              value={clipart.folder_id}
              onChange={(folderId) => move.mutate(folderId)}
              testId="clipart-folder"
            />
            <Group gap="xs">
              <Button size="xs" variant="subtle" leftSection={<IconPencil size={14} />} aria-label={`Rename ${clipart.name}`} onClick={onRename}>
                Rename
              </Button>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={14} />}
                aria-label={`Delete ${clipart.name}`}
                onClick={onDelete}
              >
                Delete
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}

/**
 * `/personalized/cliparts`: the seller's clipart library in folders, searched by name. PNG and WebP files are checked
 * by the renderer like every upload; an SVG is checked by the bff at once (a refusal says why) and drawn at print size
 * by the renderer. Designs use cliparts like artworks (docs/cliparts.md).
 */
export function ClipartsPage() {
  const user = useSessionUser();
  const canEdit = can(user, 'update_campaign');
  const queryClient = useQueryClient();
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [folder, setFolder] = useState<FolderFilter>('all');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<Clipart | null>(null);
  const [deleting, setDeleting] = useState<Clipart | null>(null);
  const folders = useQuery({ queryKey: foldersKey('clipart'), queryFn: ({ signal }) => listFolders(api, 'clipart', signal) });
  const list = useQuery({
    queryKey: [...CLIPARTS_KEY, folder, debounced, page],
    queryFn: ({ signal }) => listCliparts(api, { folder, q: debounced, page }, signal),
    placeholderData: keepPreviousData,
    // While the renderer checks or draws a clipart, its card follows.
    refetchInterval: (query) => (query.state.data?.data.some((c) => c.status === 'pending') ? 1000 : false),
  });
  const upload = useMutation({
    mutationFn: (file: File) => uploadClipart(api, file, typeof folder === 'number' ? folder : null),
    onMutate: () => setRefusal(null),
    onSuccess: (answer) => notifications.show({ color: 'green', message: answer.message }),
    onError: (error) => setRefusal(isApiError(error) ? error.message : String(error)),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: CLIPARTS_KEY });
      await queryClient.invalidateQueries({ queryKey: foldersKey('clipart') });
    },
  });

  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Cliparts
          </Title>
          <Text c="dimmed" maw={720}>
            PNG, WebP or SVG. An SVG is checked as it arrives (no scripts, no links to other files, no text) and drawn as a
            PNG of 4000 px on its long side, which designs print from.
          </Text>
        </Stack>
        {canEdit && (
          <FileButton onChange={(file) => file && upload.mutate(file)} accept={ACCEPT}>
            {(props) => (
              <Button {...props} leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                Upload clipart
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      {refusal && (
        <Alert color="red" role="alert" title="The clipart was not uploaded" data-testid="clipart-refusal" withCloseButton onClose={() => setRefusal(null)}>
          {refusal}
        </Alert>
      )}
      <FolderedGrid
        kind="clipart"
        folder={folder}
        onFolder={resetting(setFolder)}
        canEdit={canEdit}
        filesKey={CLIPARTS_KEY}
        search={q}
        onSearch={search}
        searchLabel="Search cliparts by name"
        list={list}
        loadingLabel="Loading cliparts"
        page={page}
        onPage={setPage}
        card={(c) => (
          <ClipartCard
            key={c.id}
            clipart={c}
            folders={folders.data ?? []}
            canEdit={canEdit}
            onRename={() => setRenaming(c)}
            onDelete={() => setDeleting(c)}
          />
        )}
      />
      <Modal opened={renaming !== null} onClose={() => setRenaming(null)} title="Rename the clipart">
        {renaming && <RenameForm clipart={renaming} onDone={() => setRenaming(null)} />}
      </Modal>
      <ConfirmDelete
        item={deleting && { id: deleting.id, name: deleting.name }}
        onClose={() => {
          setDeleting(null);
          void queryClient.invalidateQueries({ queryKey: foldersKey('clipart') });
        }}
        remove={(id) => deleteClipart(api, id)}
        queryKey={CLIPARTS_KEY}
        texts={{ text: 'the clipart leaves the library. Campaigns that use it keep it and keep printing with it.' }}
      />
    </Stack>
  );
}
