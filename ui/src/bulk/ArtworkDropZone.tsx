import { Paper, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState, type DragEvent } from 'react';
import { ARTWORK_TYPES } from './labels';

const isArtwork = (file: File) => (ARTWORK_TYPES as readonly string[]).includes(file.type);
const isCsv = (file: File) => file.type === 'text/csv' || /\.(csv|txt)$/i.test(file.name);

interface ArtworkDropZoneProps {
  /** Artwork files dropped, in the order they came. */
  onArtworks: (files: File[]) => void;
  /** The text of each CSV (or plain text) file of artwork URLs dropped. */
  onUrlList: (text: string) => void;
  /** The names of dropped files that are neither artwork nor a URL list. */
  onRefused: (names: string[]) => void;
}

/**
 * Where a seller drops hundreds of artwork files at once, or a CSV of artwork URLs: each file is sorted by its
 * type, and anything else is named back, never silently dropped.
 */
export function ArtworkDropZone({ onArtworks, onUrlList, onRefused }: ArtworkDropZoneProps) {
  const [over, setOver] = useState(false);

  const accept = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };

  const drop = async (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const dropped = Array.from(event.dataTransfer.files);
    const artworks = dropped.filter(isArtwork);
    const lists = dropped.filter((f) => !isArtwork(f) && isCsv(f));
    const refused = dropped.filter((f) => !isArtwork(f) && !isCsv(f)).map((f) => f.name);
    if (artworks.length > 0) onArtworks(artworks);
    if (refused.length > 0) onRefused(refused);
    for (const list of lists) onUrlList(await list.text());
  };

  return (
    <Paper
      withBorder
      radius="md"
      p="lg"
      data-testid="artwork-drop-zone"
      data-over={over}
      onDragEnter={accept}
      onDragOver={accept}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => void drop(event)}
      style={{
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: over ? 'var(--mantine-primary-color-filled)' : undefined,
        background: over ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <Stack align="center" gap={4}>
        <IconUpload size={28} stroke={1.5} aria-hidden />
        <Text fw={500}>Drop artwork files here</Text>
        <Text size="sm" c="dimmed">
          PNG, JPEG or WebP, as many as you like, or a CSV of artwork URLs
        </Text>
      </Stack>
    </Paper>
  );
}
