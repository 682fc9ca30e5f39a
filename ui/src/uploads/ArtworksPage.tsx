import {
  Alert,
  Anchor,
  Button,
  Card,
  FileButton,
  Group,
  HoverCard,
  Image,
  List,
  Modal,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, isApiError } from '../api';
import { ARTWORKS_KEY, deleteArtwork, listArtworks, moveArtwork, type Artwork, type Usage } from '../api/artworks';
import { foldersKey, listFolders, type Folder, type FolderFilter } from '../api/folders';
import { can } from '../access/rules';
import { LabelBadge } from '../components/LabelBadge';
import { useListSearch } from '../components/useListSearch';
import { FolderedGrid } from '../folders/FolderedGrid';
import { FolderSelect } from '../folders/FolderSelect';
import { plural } from '../format/plural';
import { useSessionUser } from '../session/useSessionUser';
import { variantUrl } from './api';
import { notifyUploadFailed } from './notify';
import { STATUS_LOOK } from './status';
import { uploadFile } from './uploader';

/** The campaigns an artwork is used in, each a link to its editor. */
function CampaignLinks({ campaigns }: { campaigns: Usage['campaigns'] }) {
  return (
    <List size="sm" spacing={2}>
      {campaigns.map((c) => (
        <List.Item key={c.id}>
          <Anchor component={Link} to={`/campaigns/edit/${c.id}`} style={{ overflowWrap: 'anywhere' }}>
            {c.name}
          </Anchor>
        </List.Item>
      ))}
    </List>
  );
}

/** Where an artwork is used: "Not used in a campaign", or "Used in N campaigns" listing them on hover. */
function UsageLine({ artwork }: { artwork: Artwork }) {
  if (artwork.campaigns.length === 0) {
    return (
      <Text size="xs" c="dimmed" data-testid="artwork-usage">
        Not used in a campaign
      </Text>
    );
  }
  return (
    <HoverCard width={280} shadow="md" withinPortal>
      <HoverCard.Target>
        <Text size="xs" c="blue" style={{ cursor: 'default' }} data-testid="artwork-usage">
          Used in {plural(artwork.campaigns.length, 'campaign')}
        </Text>
      </HoverCard.Target>
      <HoverCard.Dropdown>
        <CampaignLinks campaigns={artwork.campaigns} />
      </HoverCard.Dropdown>
    </HoverCard>
  );
}

function ArtworkCard({
  artwork,
  folders,
  canEdit,
  onDelete,
}: {
  artwork: Artwork;
  folders: readonly Folder[];
  canEdit: boolean;
  onDelete: () => void;
}) {
  const queryClient = useQueryClient();
  const look = STATUS_LOOK[artwork.status];
  const move = useMutation({
    mutationFn: (folderId: number | null) => moveArtwork(api, artwork.id, folderId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ARTWORKS_KEY });
      await queryClient.invalidateQueries({ queryKey: foldersKey('artwork') });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  return (
    <Card withBorder radius="md" padding="sm" data-testid="upload-card" data-status={artwork.status} data-name={artwork.file_name}>
      <Card.Section h={180} style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        {artwork.status === 'ready' ? (
          <Image src={variantUrl(artwork.fileUrl, 'thumb')} alt={artwork.file_name} h={180} w="auto" fit="contain" />
        ) : (
          <Text c="dimmed" size="sm">
            {artwork.status === 'pending' ? 'Checking…' : 'Refused'}
          </Text>
        )}
      </Card.Section>
      <Stack gap={4} mt="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {artwork.file_name}
          </Text>
          <LabelBadge color={look.color} code={artwork.status}>
            {look.label}
          </LabelBadge>
        </Group>
        {artwork.status === 'ready' && (
          <Text size="xs" c="dimmed" data-testid="upload-meta">
            {artwork.width}×{artwork.height} px{artwork.dpi_x ? ` · ${Math.round(artwork.dpi_x)} DPI` : ''} ·{' '}
            {Math.round((artwork.byte_size ?? 0) / 1024)} KB{artwork.stripped ? ' · metadata removed' : ''}
          </Text>
        )}
        {artwork.status === 'rejected' && (
          <Text size="xs" c="red" data-testid="upload-message">
            {artwork.message}
          </Text>
        )}
        <UsageLine artwork={artwork} />
        {canEdit && (
          <>
            <FolderSelect
              label={`Folder of ${artwork.file_name}`}
              folders={folders}
              value={artwork.folder_id}
              onChange={(folderId) => move.mutate(folderId)}
              testId="artwork-folder"
            />
            <Group gap="xs">
              <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={onDelete}>
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
 * The "Are you sure?" of deleting an artwork. An artwork in use is refused by the bff: the dialog then says why,
 * linking the campaigns it names.
 */
function DeleteArtwork({ artwork, onClose }: { artwork: Artwork | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => deleteArtwork(api, id),
    onSuccess: async (message) => {
      notifications.show({ color: 'green', message });
      close();
      await queryClient.invalidateQueries({ queryKey: ARTWORKS_KEY });
      await queryClient.invalidateQueries({ queryKey: foldersKey('artwork') });
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  const refusal = remove.error;
  const usage = isApiError(refusal) ? ((refusal.body as { data?: Usage } | undefined)?.data ?? null) : null;
  return (
    <Modal opened={artwork !== null} onClose={close} title="Delete this artwork?">
      <Stack gap="md">
        <Text style={{ overflowWrap: 'anywhere' }}>
          {artwork?.file_name}: the file is deleted for good. An artwork that campaigns or orders use cannot be deleted.
        </Text>
        {refusal && (
          <Alert color="red" role="alert" data-testid="artwork-refusal">
            <Stack gap="xs">
              <Text size="sm">{refusal.message}</Text>
              {usage && usage.campaigns.length > 0 && <CampaignLinks campaigns={usage.campaigns} />}
            </Stack>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {refusal ? 'Close' : 'Cancel'}
          </Button>
          {!refusal && (
            <Button color="red" loading={remove.isPending} onClick={() => artwork && remove.mutate(artwork.id)}>
              Yes, delete it!
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * `/personalized/artworks`: the seller's uploaded artworks in folders, searched by name, each with the campaigns that
 * use it; upload into the folder shown, move between folders, delete what nothing uses. Uploads go through the shared
 * uploader (src/uploads/uploader.ts).
 */
export function ArtworksPage() {
  const user = useSessionUser();
  const canEdit = can(user, 'update_campaign');
  const queryClient = useQueryClient();
  const { q, search, debounced, page, setPage, resetting } = useListSearch();
  const [folder, setFolder] = useState<FolderFilter>('all');
  const [deleting, setDeleting] = useState<Artwork | null>(null);
  const folders = useQuery({ queryKey: foldersKey('artwork'), queryFn: ({ signal }) => listFolders(api, 'artwork', signal) });
  const list = useQuery({
    queryKey: [...ARTWORKS_KEY, folder, debounced, page],
    queryFn: ({ signal }) => listArtworks(api, { folder, q: debounced, page }, signal),
    placeholderData: keepPreviousData,
  });
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const up = await uploadFile(api, file, { filePath: 'artworks' });
      if (typeof folder === 'number') await moveArtwork(api, up.id, folder);
      return up;
    },
    onError: notifyUploadFailed,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ARTWORKS_KEY });
      await queryClient.invalidateQueries({ queryKey: foldersKey('artwork') });
    },
  });

  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Artworks
          </Title>
          <Text c="dimmed">PNG, JPEG or WebP. Each file is checked before it can be used in a design.</Text>
        </Stack>
        {canEdit && (
          <FileButton onChange={(file) => file && upload.mutate(file)} accept="image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp">
            {(props) => (
              <Button {...props} leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                Upload artwork
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      <FolderedGrid
        kind="artwork"
        folder={folder}
        onFolder={resetting(setFolder)}
        canEdit={canEdit}
        filesKey={ARTWORKS_KEY}
        search={q}
        onSearch={search}
        searchLabel="Search artworks by name"
        list={list}
        loadingLabel="Loading artworks"
        page={page}
        onPage={setPage}
        card={(a) => <ArtworkCard key={a.id} artwork={a} folders={folders.data ?? []} canEdit={canEdit} onDelete={() => setDeleting(a)} />}
      />
      <DeleteArtwork artwork={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
