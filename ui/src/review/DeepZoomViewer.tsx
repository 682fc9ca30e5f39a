import { ActionIcon, Badge, Button, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconMaximize, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { api } from '../api';
import { loadTile, tilePath, type Manifest } from '../api/review';
import {
  MAX_SCALE,
  fitView,
  levelFactor,
  levelFor,
  minScale,
  pan,
  safeInset,
  visibleTiles,
  zoomAt,
  zoomPercent,
  type Size,
  type TileRef,
  type View,
} from './viewport';

/** The API base the tiles are fetched under, as the app's API client uses it. */
const API_BASE = (import.meta.env.VITE_API_BASE_URL ?? '/api').replace(/\/+$/, '');

/** How many coarser levels may stand in for a tile still loading. */
const FALLBACK_LEVELS = 6;

/** A pyramid of tiles: a revision's manifest and its tiles path under the API (`tiles_url`). */
export interface Pyramid {
  manifest: Manifest;
  tilesUrl: string;
}

/** The view a user made (null: the whole file, fitted), shared by viewers that pan and zoom together. */
export type SharedView = [View | null, Dispatch<SetStateAction<View | null>>];

interface DeepZoomViewerProps extends Pyramid {
  /** The print space's DPI, for the safe-area margin. */
  dpi: number;
  height?: number;
  /** A view shared with another viewer (side-by-side comparison); without it the viewer keeps its own. */
  sharedView?: SharedView;
  /** Swipe comparison: this pyramid is drawn left of `split` (a share of the width), the viewer's own right of it. */
  swipe?: Pyramid & { split: number };
}

type Cached = ImageBitmap | 'loading' | 'failed';

const keyOf = (tilesUrl: string, t: { level: number; col: number; row: number }) => `${tilesUrl}${t.level}/${t.col}_${t.row}`;

/** A 16 px grey checkerboard, the usual sign of transparency. */
function checkerPattern(ctx: CanvasRenderingContext2D): CanvasPattern | null {
  const tile = document.createElement('canvas');
  tile.width = 16;
  tile.height = 16;
  const t = tile.getContext('2d');
  if (!t) return null;
  t.fillStyle = '#ffffff';
  t.fillRect(0, 0, 16, 16);
  t.fillStyle = '#d0d4da';
  t.fillRect(0, 0, 8, 8);
  t.fillRect(8, 8, 8, 8);
  return ctx.createPattern(tile, 'repeat');
}

/**
 * A deep-zoom viewer of a print file: it draws only the tiles of the level the zoom needs, over a
 * transparency checkerboard, with the print area and the safe area outlined. Drag pans, the wheel
 * zooms about the pointer; the buttons zoom, fit and show 100% (one print pixel per CSS pixel).
 * A tile still loading is stood in for by the part of a coarser tile already there.
 */
export function DeepZoomViewer({ manifest, tilesUrl, dpi, height = 560, sharedView, swipe }: DeepZoomViewerProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const cache = useRef(new Map<string, Cached>());
  const drag = useRef<{ x: number; y: number } | null>(null);
  const [size, setSize] = useState<Size>({ width: 0, height: 0 });
  // The view the user made; until then the whole file, fitted.
  const ownView = useState<View | null>(null);
  const [userView, setUserView] = sharedView ?? ownView;
  const [loaded, setLoaded] = useState(0);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const observer = new ResizeObserver((entries) => {
      const entry = entries[0];
      if (!entry) return;
      const { width, height: h } = entry.contentRect;
      setSize((old) => (old.width === width && old.height === h ? old : { width, height: h }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const tiles = cache.current;
    return () => {
      for (const v of tiles.values()) if (typeof v !== 'string') v.close();
      tiles.clear();
    };
  }, []);

  const ready = size.width > 0 && size.height > 0;
  const view = userView ?? (ready ? fitView(manifest, size) : null);
  const change = useCallback(
    (next: (v: View) => View) =>
      setUserView((v) => {
        const base = v ?? (size.width > 0 && size.height > 0 ? fitView(manifest, size) : null);
        return base ? next(base) : v;
      }),
    [manifest, size, setUserView],
  );

  const ratio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  const level = view ? levelFor(manifest, view.scale, ratio) : 0;

  // The pyramids drawn: the viewer's own, and the compared one of a swipe. Each is drawn at its own
  // level for the same view (print pixels to screen), so versions of different sizes line up at the origin.
  const scale = view?.scale;
  const swipeManifest = swipe?.manifest;
  const swipeTiles = swipe?.tilesUrl;
  const layers = useMemo(() => {
    const pyramids: Pyramid[] = [{ manifest, tilesUrl }];
    if (swipeManifest && swipeTiles) pyramids.push({ manifest: swipeManifest, tilesUrl: swipeTiles });
    return pyramids.map((p) => ({ ...p, level: scale === undefined ? 0 : levelFor(p.manifest, scale, ratio) }));
  }, [manifest, tilesUrl, swipeManifest, swipeTiles, scale, ratio]);
  const split = swipe?.split;

  // Fetch the tiles the view shows at its level, centre first.
  useEffect(() => {
    if (!view || !ready) return;
    for (const layer of layers) {
      for (const t of visibleTiles(layer.manifest, layer.level, view, size)) {
        const key = keyOf(layer.tilesUrl, t);
        if (cache.current.has(key)) continue;
        cache.current.set(key, 'loading');
        loadTile(api, API_BASE, tilePath(layer.tilesUrl, layer.manifest, t.level, t.col, t.row))
          .then((bitmap) => cache.current.set(key, bitmap))
          .catch(() => cache.current.set(key, 'failed'))
          .finally(() => setLoaded((n) => n + 1));
      }
    }
  }, [view, ready, size, layers]);

  // Draw on the next frame whenever the view or the tiles change.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !view || !ready) return;
    const frame = requestAnimationFrame(() => {
      canvas.width = Math.round(size.width * ratio);
      canvas.height = Math.round(size.height * ratio);
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, size.width, size.height);
      const { scale: s, offsetX: ox, offsetY: oy } = view;
      const pattern = checkerPattern(ctx);
      if (pattern) {
        ctx.fillStyle = pattern;
        ctx.fillRect(ox, oy, manifest.width * s, manifest.height * s);
      }
      ctx.imageSmoothingQuality = 'high';
      const splitX = split === undefined ? 0 : Math.round(size.width * split);
      layers.forEach((layer, i) => {
        ctx.save();
        if (split !== undefined) {
          // The compared pyramid left of the split, the viewer's own right of it.
          ctx.beginPath();
          if (i === 0) ctx.rect(splitX, 0, size.width - splitX, size.height);
          else ctx.rect(0, 0, splitX, size.height);
          ctx.clip();
        }
        for (const t of visibleTiles(layer.manifest, layer.level, view, size)) drawTile(ctx, layer, t, view);
        ctx.restore();
      });
      // Print area (the file's edge) and safe area.
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = '#228be6';
      ctx.setLineDash([]);
      ctx.strokeRect(ox, oy, manifest.width * s, manifest.height * s);
      const inset = safeInset(dpi) * s;
      ctx.strokeStyle = '#f76707';
      ctx.setLineDash([6, 4]);
      ctx.strokeRect(ox + inset, oy + inset, manifest.width * s - 2 * inset, manifest.height * s - 2 * inset);
      if (split !== undefined) {
        ctx.strokeStyle = '#ffffff';
        ctx.setLineDash([]);
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(splitX, 0);
        ctx.lineTo(splitX, size.height);
        ctx.stroke();
      }
    });
    return () => cancelAnimationFrame(frame);

    function drawTile(ctx: CanvasRenderingContext2D, layer: Pyramid, t: TileRef, v: View) {
      const dx = v.offsetX + t.x * v.scale;
      const dy = v.offsetY + t.y * v.scale;
      const dw = t.width * v.scale;
      const dh = t.height * v.scale;
      for (let k = 0; k <= Math.min(FALLBACK_LEVELS, t.level); k++) {
        const lvl = t.level - k;
        const bitmap = cache.current.get(keyOf(layer.tilesUrl, { level: lvl, col: t.col >> k, row: t.row >> k }));
        if (!bitmap || typeof bitmap === 'string') continue;
        // The part of the (coarser) tile covering t, in its own pixels.
        const f = levelFactor(layer.manifest, lvl);
        const span = layer.manifest.tile_size * f;
        const ax = (t.col >> k) * span;
        const ay = (t.row >> k) * span;
        ctx.drawImage(bitmap, (t.x - ax) / f, (t.y - ay) / f, t.width / f, t.height / f, dx, dy, dw, dh);
        return;
      }
    }
  }, [view, ready, size, ratio, manifest, dpi, loaded, layers, split]);

  const bounds = { min: minScale(manifest, size), max: MAX_SCALE };
  const zoomBy = useCallback(
    (factor: number, x?: number, y?: number) =>
      change((v) =>
        zoomAt(v, v.scale * factor, x ?? size.width / 2, y ?? size.height / 2, { min: minScale(manifest, size), max: MAX_SCALE }),
      ),
    [change, manifest, size],
  );

  // The wheel needs a non-passive listener to keep the page from scrolling.
  useEffect(() => {
    const el = canvasRef.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const rect = el.getBoundingClientRect();
      zoomBy(Math.exp(-event.deltaY * 0.0015), event.clientX - rect.left, event.clientY - rect.top);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoomBy]);

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Group justify="space-between" px="sm" py={6} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap={6}>
          <Tooltip label="Zoom out">
            <ActionIcon variant="default" aria-label="Zoom out" onClick={() => zoomBy(1 / 1.5)}>
              <IconZoomOut size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Zoom in">
            <ActionIcon variant="default" aria-label="Zoom in" onClick={() => zoomBy(1.5)}>
              <IconZoomIn size={16} />
            </ActionIcon>
          </Tooltip>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconMaximize size={14} />}
            onClick={() => setUserView(null)}
          >
            Fit
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            onClick={() => change((v) => zoomAt(v, 1, size.width / 2, size.height / 2, bounds))}
          >
            100%
          </Button>
        </Group>
        <Group gap="xs">
          <Badge variant="light" color="blue" data-testid="zoom-level">
            {view ? `${zoomPercent(view)}%` : '–'}
          </Badge>
          <Text size="xs" c="dimmed">
            level {level + 1}/{manifest.levels}
          </Text>
        </Group>
      </Group>
      <div ref={containerRef} style={{ height, position: 'relative', background: 'var(--mantine-color-default-hover)' }}>
        <canvas
          ref={canvasRef}
          data-testid="deep-zoom"
          data-level={level}
          data-zoom={view ? zoomPercent(view) : undefined}
          aria-label="Print file"
          style={{ width: '100%', height: '100%', display: 'block', cursor: dragging ? 'grabbing' : 'grab', touchAction: 'none' }}
          onPointerDown={(event) => {
            event.currentTarget.setPointerCapture(event.pointerId);
            drag.current = { x: event.clientX, y: event.clientY };
            setDragging(true);
          }}
          onPointerMove={(event) => {
            const last = drag.current;
            if (!last) return;
            drag.current = { x: event.clientX, y: event.clientY };
            change((v) => pan(v, event.clientX - last.x, event.clientY - last.y));
          }}
          onPointerUp={() => {
            drag.current = null;
            setDragging(false);
          }}
          onPointerCancel={() => {
            drag.current = null;
            setDragging(false);
          }}
        />
      </div>
    </Paper>
  );
}
