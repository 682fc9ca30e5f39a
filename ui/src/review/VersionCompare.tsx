import { Alert, Group, Loader, SegmentedControl, Select, SimpleGrid, Slider, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../api';
import { reviewKeys, revisionManifest, revisionTilesUrl, type Manifest } from '../api/review';
import { DeepZoomViewer } from './DeepZoomViewer';
import type { ViewState } from './viewport';

type Mode = 'side' | 'swipe';

interface VersionCompareProps {
  itemId: number;
  /** The current revision, its manifest and tiles path. */
  revision: number;
  manifest: Manifest;
  tilesUrl: string;
  dpi: number;
}

/**
 * The current print file beside an earlier revision of it: side by side, panning and zooming together, or
 * swiped over one another with a slider, keeping the view across the two. Without another revision it is the
 * plain viewer.
 */
export function VersionCompare({ itemId, revision, manifest, tilesUrl, dpi }: VersionCompareProps) {
  const [other, setOther] = useState<number | null>(null);
  const [mode, setMode] = useState<Mode>('side');
  const [split, setSplit] = useState(50);
  const shared = useState<ViewState | null>(null);
  const earlier = useQuery({
    queryKey: reviewKeys.manifest(itemId, other ?? 0),
    queryFn: ({ signal }) => revisionManifest(api, itemId, other ?? 0, signal),
    enabled: other !== null,
    retry: false,
    staleTime: Infinity,
  });
  const otherTiles = other === null ? '' : revisionTilesUrl(tilesUrl, other);
  const choices = Array.from({ length: revision - 1 }, (_, i) => revision - 1 - i).map((r) => ({ value: String(r), label: `Revision ${r}` }));

  return (
    <Stack gap="xs" data-testid="version-compare">
      {choices.length > 0 && (
        <Group gap="sm">
          <Select
            size="xs"
            placeholder="Compare with…"
            aria-label="Compare with revision"
            data={choices}
            value={other === null ? null : String(other)}
            onChange={(v) => setOther(v === null ? null : Number(v))}
            clearable
            w={180}
          />
          {other !== null && (
            <SegmentedControl
              size="xs"
              value={mode}
              onChange={setMode}
              data={[
                { value: 'side', label: 'Side by side' },
                { value: 'swipe', label: 'Swipe' },
              ]}
            />
          )}
        </Group>
      )}
      {other !== null && earlier.isPending && <Loader size="sm" aria-label="Loading the earlier revision" />}
      {other !== null && earlier.isError && (
        <Alert color="yellow" variant="light">
          {isApiError(earlier.error) && earlier.error.status === 404
            ? `Revision ${other} has no prepared print file to compare.`
            : earlier.error.message}
        </Alert>
      )}
      {other !== null && earlier.isSuccess && mode === 'side' ? (
        <SimpleGrid cols={2} spacing="xs">
          <Stack gap={2}>
            <Text size="xs" fw={600}>
              Revision {other}
            </Text>
            <DeepZoomViewer key={otherTiles} manifest={earlier.data} tilesUrl={otherTiles} dpi={dpi} sharedView={shared} height={480} />
          </Stack>
          <Stack gap={2}>
            <Text size="xs" fw={600}>
              Revision {revision} (current)
            </Text>
            <DeepZoomViewer key={tilesUrl} manifest={manifest} tilesUrl={tilesUrl} dpi={dpi} sharedView={shared} height={480} />
          </Stack>
        </SimpleGrid>
      ) : other !== null && earlier.isSuccess ? (
        <Stack gap={4}>
          <DeepZoomViewer
            key={tilesUrl}
            manifest={manifest}
            tilesUrl={tilesUrl}
            dpi={dpi}
            sharedView={shared}
            swipe={{ manifest: earlier.data, tilesUrl: otherTiles, split: split / 100 }}
          />
          <Group gap="sm" wrap="nowrap">
            <Text size="xs" c="dimmed" w={90}>
              Revision {other}
            </Text>
            <Slider value={split} onChange={setSplit} label={null} thumbLabel="Swipe between the revisions" style={{ flex: 1 }} />
            <Text size="xs" c="dimmed" w={90} ta="right">
              Revision {revision}
            </Text>
          </Group>
        </Stack>
      ) : (
        <DeepZoomViewer key={tilesUrl} manifest={manifest} tilesUrl={tilesUrl} dpi={dpi} />
      )}
    </Stack>
  );
}
