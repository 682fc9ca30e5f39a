import {
  Alert,
  Button,
  Card,
  FileButton,
  Group,
  Image,
  Loader,
  Pagination,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { listUploads, variantUrl, type Upload } from './api';
import { notifyUploadFailed } from './notify';
import { uploadFile } from './uploader';
import { LabelBadge } from '../components/LabelBadge';

const STATUS_LOOK = {
  pending: { color: 'yellow', label: 'Checking' },
  ready: { color: 'green', label: 'Ready' },
  rejected: { color: 'red', label: 'Refused' },
} as const;

function UploadCard({ upload }: { upload: Upload }) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid="upload-card" data-status={upload.status}>
      <Card.Section h={200} style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        {upload.status === 'ready' ? (
          <Image
            src={variantUrl(upload.fileUrl, 'thumb')}
            alt={upload.file_name}
            h={200}
            w="auto"
            fit="contain"
          />
        ) : (
          <Text c="dimmed" size="sm">
            {upload.status === 'pending' ? 'Checking…' : 'Refused'}
          </Text>
        )}
      </Card.Section>
      <Stack gap={4} mt="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" fw={500} truncate="end" title={upload.file_name}>
            {upload.file_name}
          </Text>
          <LabelBadge color={STATUS_LOOK[upload.status].color} code={upload.status}>
            {STATUS_LOOK[upload.status].label}
          </LabelBadge>
        </Group>
        {upload.status === 'ready' && (
          <Text size="xs" c="dimmed" data-testid="upload-meta">
            {upload.width}×{upload.height} px{upload.dpi_x ? ` · ${Math.round(upload.dpi_x)} DPI` : ''} ·{' '}
            {Math.round((upload.byte_size ?? 0) / 1024)} KB{upload.stripped ? ' · metadata removed' : ''}
          </Text>
        )}
        {upload.status === 'rejected' && (
          <Text size="xs" c="red" data-testid="upload-message">
            {upload.message}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/**
 * `/personalized/artworks`: the seller's uploaded artwork with thumbnails and an upload button.
 * Uploads go through the shared uploader (src/uploads/uploader.ts).
 */
export function ArtworksPage() {
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const uploads = useQuery({
    queryKey: ['uploads', page],
    queryFn: ({ signal }) => listUploads(api, page, signal),
    placeholderData: keepPreviousData,
  });
  const upload = useMutation({
    mutationFn: (file: File) => uploadFile(api, file, { filePath: 'artworks' }),
    onError: notifyUploadFailed,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['uploads'] }),
  });

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Artworks
          </Title>
          <Text c="dimmed">PNG, JPEG or WebP. Each file is checked before it can be used in a design.</Text>
        </Stack>
        <FileButton onChange={(file) => file && upload.mutate(file)} accept="image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp">
          {(props) => (
            <Button {...props} leftSection={<IconUpload size={16} />} loading={upload.isPending}>
              Upload artwork
            </Button>
          )}
        </FileButton>
      </Group>
      {uploads.isError && <Alert color="red">{uploads.error.message}</Alert>}
      {uploads.isPending ? (
        <Loader />
      ) : uploads.data && uploads.data.data.length > 0 ? (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            {uploads.data.data.map((u) => (
              <UploadCard key={u.id} upload={u} />
            ))}
          </SimpleGrid>
          {uploads.data.last_page > 1 && (
            <Pagination value={page} onChange={setPage} total={uploads.data.last_page} />
          )}
        </>
      ) : (
        <Text c="dimmed">Oops! No entries found.</Text>
      )}
    </Stack>
  );
}
