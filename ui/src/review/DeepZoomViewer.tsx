import { ActionIcon, Button, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconMaximize, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import OpenSeadragon from 'openseadragon';
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { api } from '../api';
import type { Manifest } from '../api/review';
import { GUIDES, guideBorder, safeInset } from '../print/guides';
import { MAX_SCALE, levelFor, sameView, zoomPercent, type ViewState } from './viewport';
import { LabelBadge } from '../components/LabelBadge';

/** The API base the tiles are fetched under, as the app's API client uses it. */
const API_BASE = (import.meta.env.VITE_API_BASE_URL ?? '/api').replace(/\/+$/, '');

/** The space kept around the whole file when it is fitted, in CSS pixels. */
const FIT_MARGIN = 16;
/** How far out the viewer zooms: a tenth of the fitted size. */
const MIN_ZOOM_RATIO = 0.1;
/** The zoom buttons' step. */
const ZOOM_STEP = 1.5;

/** A pyramid of tiles: a revision's manifest and its tiles path under the API (`tiles_url`). */
export interface Pyramid {
  manifest: Manifest;
  tilesUrl: string;
}

/** The view a user made (null: the whole file, fitted), shared by viewers that pan and zoom together. */
export type SharedView = [ViewState | null, Dispatch<SetStateAction<ViewState | null>>];

interface DeepZoomViewerProps extends Pyramid {
  /** The print space's DPI, for the safe-area margin. */
  dpi: number;
  height?: number;
  /** A view shared with another viewer (side-by-side comparison); without it the viewer keeps its own. */
  sharedView?: SharedView;
  /** Swipe comparison: this pyramid is drawn left of `split` (a share of the width), the viewer's own right of it. */
  swipe?: Pyramid & { split: number };
}

/**
 * The pyramid as OpenSeadragon reads it. renderer/tiles writes a Deep Zoom pyramid (level 0 one pixel, each level
 * twice the one before, `level/col_row.format` tiles without overlap), so it is a DziTileSource whose tiles are
 * fetched with the bearer token of the moment (tiles are for designers only).
 */
function tileSourceOf({ manifest, tilesUrl }: Pyramid): OpenSeadragon.TileSource {
  const source = new OpenSeadragon.DziTileSource(
    manifest.width,
    manifest.height,
    manifest.tile_size,
    0,
    `${API_BASE}${tilesUrl}`,
    manifest.format,
  );
  source.getTileAjaxHeaders = () => {
    const token = api.tokens.get();
    return token ? { Authorization: `Bearer ${token}` } : {};
  };
  return source;
}

/** The viewer's own view: the zoom (CSS pixels per print pixel) and the print pixel at the centre. */
function viewOf(viewer: OpenSeadragon.Viewer, own: OpenSeadragon.TiledImage): ViewState {
  const centre = own.viewportToImageCoordinates(viewer.viewport.getCenter(true));
  return { zoom: own.viewportToImageZoom(viewer.viewport.getZoom(true)), x: centre.x, y: centre.y };
}

/** Shows `view` at once. */
function show(viewer: OpenSeadragon.Viewer, own: OpenSeadragon.TiledImage, view: ViewState): void {
  viewer.viewport.zoomTo(own.imageToViewportZoom(view.zoom), undefined, true);
  viewer.viewport.panTo(own.imageToViewportCoordinates(view.x, view.y), true);
}

/** Places an element over the rectangle `r` (CSS pixels in the viewer), `inset` pixels inside it. */
function place(el: HTMLElement | null, r: OpenSeadragon.Rect, inset = 0): void {
  if (!el) return;
  el.style.left = `${r.x + inset}px`;
  el.style.top = `${r.y + inset}px`;
  el.style.width = `${Math.max(0, r.width - 2 * inset)}px`;
  el.style.height = `${Math.max(0, r.height - 2 * inset)}px`;
}

/** A rectangle of a tiled image's own pixels, cut at image x `from` to `to`. */
function band(item: OpenSeadragon.TiledImage, from: number, to: number): OpenSeadragon.Rect {
  const { x: w, y: h } = item.source.dimensions;
  const a = Math.min(Math.max(from, 0), w);
  const b = Math.min(Math.max(to, 0), w);
  return new OpenSeadragon.Rect(a, 0, Math.max(0, b - a), h);
}

/** The image an addTiledImage success event carries (OpenSeadragon's types call the event a bare Event). */
function itemOf(event: Event): OpenSeadragon.TiledImage {
  return (event as unknown as { item: OpenSeadragon.TiledImage }).item;
}

const CHECKER =
  'repeating-conic-gradient(#d0d4da 0% 25%, #ffffff 0% 50%) 0 0 / 16px 16px';

/**
 * A deep-zoom viewer of a print file on OpenSeadragon: it fetches only the tiles of the levels the zoom needs,
 * over a transparency checkerboard, with the print area and the safe area outlined. Drag pans, the wheel zooms
 * about the pointer; the buttons zoom, fit and show 100% (one print pixel per CSS pixel).
 */
export function DeepZoomViewer({ manifest, tilesUrl, dpi, height = 560, sharedView, swipe }: DeepZoomViewerProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const checkerRef = useRef<HTMLDivElement>(null);
  const printAreaRef = useRef<HTMLDivElement>(null);
  const safeAreaRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<{ viewer: OpenSeadragon.Viewer; own: OpenSeadragon.TiledImage } | null>(null);
  const comparedRef = useRef<OpenSeadragon.TiledImage | null>(null);
  const [zoom, setZoom] = useState<number | null>(null);

  // What the OpenSeadragon handlers read, which outlive a render.
  const latest = useRef({ sharedView, split: swipe?.split });
  useEffect(() => {
    latest.current = { sharedView, split: swipe?.split };
  });

  const swipeManifest = swipe?.manifest;
  const swipeTiles = swipe?.tilesUrl;
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const viewer = OpenSeadragon({
      element: host,
      loadTilesWithAjax: true,
      drawer: 'canvas',
      showNavigationControl: false,
      keyboardNavEnabled: false,
      gestureSettingsMouse: { clickToZoom: false, dblClickToZoom: false },
      viewportMargins: { left: FIT_MARGIN, top: FIT_MARGIN, right: FIT_MARGIN, bottom: FIT_MARGIN },
      minZoomImageRatio: MIN_ZOOM_RATIO,
      maxZoomPixelRatio: MAX_SCALE,
      visibilityRatio: 0.2,
    });

    const onViewport = () => {
      const held = viewerRef.current;
      if (!held) return;
      const { own } = held;
      const view = viewOf(viewer, own);
      setZoom(view.zoom);
      const shared = latest.current.sharedView;
      if (shared && !sameView(shared[0], view)) shared[1](view);

      const rect = viewer.viewport.viewportToViewerElementRectangle(own.getBounds(true));
      place(checkerRef.current, rect);
      place(printAreaRef.current, rect);
      place(safeAreaRef.current, rect, safeInset(dpi) * view.zoom);

      // Swipe: the compared revision left of the split, the viewer's own right of it.
      const compared = comparedRef.current;
      const split = latest.current.split;
      if (compared && split !== undefined) {
        const at = viewer.viewport.pointFromPixel(new OpenSeadragon.Point(host.clientWidth * split, 0), true);
        const ownX = own.viewportToImageCoordinates(at).x;
        const comparedX = compared.viewportToImageCoordinates(at).x;
        const ownClip = band(own, ownX, Infinity);
        const comparedClip = band(compared, -Infinity, comparedX);
        if (!own.getClip()?.equals(ownClip)) own.setClip(ownClip);
        if (!compared.getClip()?.equals(comparedClip)) compared.setClip(comparedClip);
      }
    };

    viewer.addTiledImage({
      tileSource: tileSourceOf({ manifest, tilesUrl }),
      x: 0,
      y: 0,
      width: 1,
      success: (event) => {
        const own = itemOf(event);
        viewerRef.current = { viewer, own };
        const shared = latest.current.sharedView?.[0];
        if (shared) show(viewer, own, shared);
        else viewer.viewport.fitBounds(own.getBounds(), true);
        onViewport();
      },
    });
    if (swipeManifest && swipeTiles) {
      viewer.addTiledImage({
        tileSource: tileSourceOf({ manifest: swipeManifest, tilesUrl: swipeTiles }),
        x: 0,
        y: 0,
        // One print pixel of either revision is the same size on screen, so both line up at the origin.
        width: swipeManifest.width / manifest.width,
        success: (event) => {
          comparedRef.current = itemOf(event);
          viewer.forceRedraw();
        },
      });
    }
    viewer.addHandler('update-viewport', onViewport);
    return () => {
      viewerRef.current = null;
      comparedRef.current = null;
      viewer.destroy();
    };
  }, [manifest, tilesUrl, dpi, swipeManifest, swipeTiles]);

  // Another viewer's view, shared: shown here too.
  const sharedState = sharedView?.[0];
  useEffect(() => {
    const held = viewerRef.current;
    if (!held || !sharedState) return;
    if (!sameView(viewOf(held.viewer, held.own), sharedState)) show(held.viewer, held.own, sharedState);
  }, [sharedState]);

  // The swipe's split moved: clip again.
  const split = swipe?.split;
  useEffect(() => {
    viewerRef.current?.viewer.forceRedraw();
  }, [split]);

  /** The toolbar: zoom out or in a step, fit the whole file, or show it at 100%. */
  const onTool = (tool: 'out' | 'in' | 'fit' | 'actual') => {
    const held = viewerRef.current;
    if (!held) return;
    const { viewport } = held.viewer;
    if (tool === 'fit') viewport.fitBounds(held.own.getBounds(), true);
    else if (tool === 'actual') viewport.zoomTo(held.own.imageToViewportZoom(1), undefined, true);
    else viewport.zoomBy(tool === 'in' ? ZOOM_STEP : 1 / ZOOM_STEP, undefined, true);
    viewport.applyConstraints(true);
  };

  const ratio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  // The finest level OpenSeadragon draws: the one whose pixels are the closest not coarser than the screen's.
  const level = zoom === null ? 0 : levelFor(manifest, zoom, ratio);
  const percent = zoom === null ? undefined : zoomPercent(zoom);
  const splitX = split === undefined ? undefined : `${split * 100}%`;

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Group justify="space-between" px="sm" py={6} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap={6}>
          <Tooltip label="Zoom out">
            <ActionIcon variant="default" aria-label="Zoom out" onClick={() => onTool('out')}>
              <IconZoomOut size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Zoom in">
            <ActionIcon variant="default" aria-label="Zoom in" onClick={() => onTool('in')}>
              <IconZoomIn size={16} />
            </ActionIcon>
          </Tooltip>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconMaximize size={14} />}
            onClick={() => onTool('fit')}
          >
            Fit
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            onClick={() => onTool('actual')}
          >
            100%
          </Button>
        </Group>
        <Group gap="xs">
          <LabelBadge color="blue" data-testid="zoom-level">
            {percent === undefined ? '–' : `${percent}%`}
          </LabelBadge>
          <Text size="xs" c="dimmed">
            level {level + 1}/{manifest.levels}
          </Text>
        </Group>
      </Group>
      <div
        data-testid="deep-zoom"
        data-level={level}
        data-zoom={percent}
        role="img"
        aria-label="Print file"
        style={{ height, position: 'relative', overflow: 'hidden', background: 'var(--mantine-color-default-hover)' }}
      >
        <div ref={checkerRef} style={{ position: 'absolute', background: CHECKER }} />
        <div ref={hostRef} style={{ position: 'absolute', inset: 0, cursor: 'grab' }} />
        <div ref={printAreaRef} style={{ position: 'absolute', pointerEvents: 'none', border: guideBorder(GUIDES.printArea), boxSizing: 'border-box' }} />
        <div ref={safeAreaRef} style={{ position: 'absolute', pointerEvents: 'none', border: guideBorder(GUIDES.safeArea), boxSizing: 'border-box' }} />
        {splitX !== undefined && (
          <div style={{ position: 'absolute', top: 0, bottom: 0, left: splitX, width: 2, marginLeft: -1, background: '#ffffff', pointerEvents: 'none' }} />
        )}
      </div>
    </Paper>
  );
}
