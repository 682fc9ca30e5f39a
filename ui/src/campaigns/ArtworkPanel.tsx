import { Button, Checkbox, FileButton, Group, Image, ScrollArea, SegmentedControl, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { CLIPARTS_KEY, listCliparts, type Clipart } from '../api/cliparts';
import { ClipartPicker } from '../cliparts/ClipartPicker';
import { LIMITS, type ImageObject } from '../editor/document';
import { isCustomObject, type LayerMove } from '../editor/model';
import { variantUrl, type Upload } from '../uploads/api';
import { BoundedNumberInput } from './BoundedNumberInput';
import { InputPanel, type PictureChoice } from './InputPanel';
import type { Input } from '../editor/document';

interface ArtworkPanelProps {
  /** The selected image, if the selection is one: picks then replace it instead of adding. */
  image: ImageObject | null;
  /** The seller's checked uploads, newest first. */
  uploads: readonly Upload[];
  uploading: boolean;
  onUpload: (file: File) => void;
  onPick: (upload: Upload) => void;
  /** Places a clipart of the library as an image, like an artwork. */
  onPickClipart: (clipart: Clipart) => void;
  onResize: (width: number) => void;
  /** Why the last width was not applied as asked (restricted mode), shown under the width. */
  refusal: string | null;
  /** Marks the selected image as the customer image, or unmarks it. */
  onCustomChange: (custom: boolean) => void;
  /** How the buyer fills the selected image, when it is the buyer's. */
  onInput: (input: Input | undefined) => void;
  onLayer: (move: LayerMove) => void;
  onRemove: () => void;
}

const ACCEPT = 'image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp';

/** The width field of the selected image: applied on Enter or when it loses focus, the height following the aspect. */
function WidthInput({ image, onResize, refusal }: { image: ImageObject; onResize: (width: number) => void; refusal: string | null }) {
  return (
    <BoundedNumberInput
      label="Width (print px)"
      what="The width"
      min={1}
      max={LIMITS.maxCoordinate}
      allowDecimal={false}
      applyOn="commit"
      value={Math.round(image.width)}
      onValue={onResize}
      refusal={refusal}
      data-action="resize"
      description={`${Math.round(image.width)} × ${Math.round(image.height)} px placed at ${Math.round(image.x)}, ${Math.round(image.y)}`}
    />
  );
}

/** The most cliparts of the library a picture dropdown offers beside the artworks (the newest). */
const CLIPART_CHOICES = 60;

/** The pictures a picture dropdown may offer: the checked artworks and the library's ready cliparts whose size is known. */
function pictureChoices(uploads: readonly Upload[], cliparts: readonly Clipart[]): PictureChoice[] {
  return [
    ...uploads.flatMap((u) =>
      u.width && u.height ? [{ src: u.filePath, width: u.width, height: u.height, label: u.file_name, thumbnail: variantUrl(u.fileUrl, 'thumb') }] : [],
    ),
    ...cliparts.flatMap((c) => (c.width && c.height ? [{ src: c.key, width: c.width, height: c.height, label: c.name, thumbnail: c.thumbnail_url }] : [])),
  ];
}

/** The library's ready cliparts a picture dropdown offers, loaded only while one is being set up. */
function useClipartChoices(enabled: boolean): readonly Clipart[] {
  const list = useQuery({
    queryKey: [...CLIPARTS_KEY, 'choices'],
    queryFn: ({ signal }) => listCliparts(api, { folder: 'all', q: '', page: 1, perPage: CLIPART_CHOICES, readyOnly: true }, signal),
    enabled,
  });
  return list.data?.data ?? [];
}

/**
 * Artwork of the print space: upload a file, pick an earlier upload or a clipart of the library; with an image
 * selected, these replace it.
 */
export function ArtworkPanel({
  image,
  uploads,
  uploading,
  onUpload,
  onPick,
  onPickClipart,
  onResize,
  refusal,
  onCustomChange,
  onInput,
  onLayer,
  onRemove,
}: ArtworkPanelProps) {
  const [source, setSource] = useState<'uploads' | 'cliparts'>('uploads');
  const cliparts = useClipartChoices(image !== null && isCustomObject(image));
  return (
    <Stack gap="sm">
      <FileButton onChange={(file) => file && onUpload(file)} accept={ACCEPT}>
        {(props) => (
          <Button {...props} leftSection={<IconUpload size={16} />} loading={uploading} w="fit-content" data-action="pickUpload">
            {image ? 'Upload replacement' : 'Upload artwork'}
          </Button>
        )}
      </FileButton>
      <SegmentedControl<'uploads' | 'cliparts'>
        size="xs"
        value={source}
        onChange={setSource}
        data={[
          { value: 'uploads', label: 'Your artworks' },
          { value: 'cliparts', label: 'Cliparts' },
        ]}
        aria-label="Pick from"
        data-testid="artwork-source"
      />
      <Text size="xs" c="dimmed">
        {image ? 'Pick one to replace the selected artwork.' : 'Or pick one to add it.'}
      </Text>
      {source === 'cliparts' ? (
        <ClipartPicker onPick={onPickClipart} verb={image ? 'Replace with' : 'Add'} />
      ) : (
        <ScrollArea.Autosize mah={220}>
          <SimpleGrid cols={4} spacing={6}>
            {uploads.map((u) => (
              <UnstyledButton
                key={u.id}
                onClick={() => onPick(u)}
                title={`${u.file_name} (${u.width}×${u.height})`}
                aria-label={`${image ? 'Replace with' : 'Add'} ${u.file_name}`}
                data-action="pickUpload"
                style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 6, padding: 2 }}
              >
                <Image src={variantUrl(u.fileUrl, 'thumb')} alt={u.file_name} h={64} fit="contain" />
              </UnstyledButton>
            ))}
          </SimpleGrid>
        </ScrollArea.Autosize>
      )}
      {image && (
        <Stack gap="xs">
          <WidthInput key={`${image.id}:${image.width}`} image={image} onResize={onResize} refusal={refusal} />
          <Checkbox
            label="Customer image (the customer replaces it; lock edit moves only this)"
            checked={isCustomObject(image)}
            onChange={(event) => onCustomChange(event.currentTarget.checked)}
            data-action="setCustomImage"
          />
          {isCustomObject(image) && <InputPanel object={image} pictures={pictureChoices(uploads, cliparts)} onChange={onInput} />}
          <Group gap="xs">
            <Button size="xs" variant="default" leftSection={<IconArrowUp size={14} />} onClick={() => onLayer('up')} data-action="moveLayer">
              Forward
            </Button>
            <Button size="xs" variant="default" leftSection={<IconArrowDown size={14} />} onClick={() => onLayer('down')} data-action="moveLayer">
              Backward
            </Button>
            <Button size="xs" color="red" variant="subtle" leftSection={<IconTrash size={14} />} onClick={onRemove} data-action="remove">
              Remove
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
