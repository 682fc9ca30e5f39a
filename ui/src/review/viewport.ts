/**
 * The deep-zoom viewer's geometry, free of React and canvas: a view maps print-file pixels to screen
 * (CSS) pixels as `screen = offset + print * scale`. The pyramid's last level is the full-size file;
 * each level below is half the one above (renderer/tiles).
 */

import type { Manifest } from '../api/review';

export interface View {
  readonly scale: number;
  readonly offsetX: number;
  readonly offsetY: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** A tile of one level, with where it covers the print file, in print pixels. */
export interface TileRef {
  readonly level: number;
  readonly col: number;
  readonly row: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Zoom bounds: from a tenth of fitting (never below 1/64) up to 8 screen pixels per print pixel. */
export const MAX_SCALE = 8;

/** The scale that shows the whole file with a margin, centred in the viewport. */
export function fitView(manifest: Manifest, viewport: Size, margin = 16): View {
  const scale = Math.min(
    (viewport.width - 2 * margin) / manifest.width,
    (viewport.height - 2 * margin) / manifest.height,
  );
  const s = Math.max(scale, 1 / 1024);
  return {
    scale: s,
    offsetX: (viewport.width - manifest.width * s) / 2,
    offsetY: (viewport.height - manifest.height * s) / 2,
  };
}

export function minScale(manifest: Manifest, viewport: Size): number {
  return Math.max(fitView(manifest, viewport).scale / 10, 1 / 64);
}

/** Zooms to `scale` keeping the print pixel under the screen point (x, y) where it is. */
export function zoomAt(view: View, scale: number, x: number, y: number, bounds: { min: number; max: number }): View {
  const s = Math.min(Math.max(scale, bounds.min), bounds.max);
  const px = (x - view.offsetX) / view.scale;
  const py = (y - view.offsetY) / view.scale;
  return { scale: s, offsetX: x - px * s, offsetY: y - py * s };
}

export function pan(view: View, dx: number, dy: number): View {
  return { ...view, offsetX: view.offsetX + dx, offsetY: view.offsetY + dy };
}

/**
 * The level whose pixels are the closest not coarser than the screen's: at `scale` CSS pixels per
 * print pixel and `pixelRatio` device pixels per CSS pixel, a level downscaled by 2^k is sharp while
 * 2^k <= 1 / (scale * pixelRatio).
 */
export function levelFor(manifest: Manifest, scale: number, pixelRatio = 1): number {
  const last = manifest.levels - 1;
  const density = scale * pixelRatio;
  if (density >= 1) return last;
  const k = Math.floor(Math.log2(1 / density) + 1e-9);
  return Math.max(0, last - k);
}

/** How many print pixels one pixel of `level` covers. */
export function levelFactor(manifest: Manifest, level: number): number {
  return 2 ** (manifest.levels - 1 - level);
}

/** The tiles of `level` that the viewport shows, nearest to the centre first. */
export function visibleTiles(manifest: Manifest, level: number, view: View, viewport: Size): TileRef[] {
  const f = levelFactor(manifest, level);
  const span = manifest.tile_size * f;
  const x0 = Math.max(0, -view.offsetX / view.scale);
  const y0 = Math.max(0, -view.offsetY / view.scale);
  const x1 = Math.min(manifest.width, (viewport.width - view.offsetX) / view.scale);
  const y1 = Math.min(manifest.height, (viewport.height - view.offsetY) / view.scale);
  if (x1 <= x0 || y1 <= y0) return [];
  const tiles: TileRef[] = [];
  for (let row = Math.floor(y0 / span); row * span < y1; row++) {
    for (let col = Math.floor(x0 / span); col * span < x1; col++) {
      const x = col * span;
      const y = row * span;
      tiles.push({
        level,
        col,
        row,
        x,
        y,
        width: Math.min(span, manifest.width - x),
        height: Math.min(span, manifest.height - y),
      });
    }
  }
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const distance = (t: TileRef) => Math.hypot(t.x + t.width / 2 - cx, t.y + t.height / 2 - cy);
  return tiles.sort((a, b) => distance(a) - distance(b));
}

/** The zoom as the viewer labels it: 100% is one print pixel per CSS pixel. */
export function zoomPercent(view: View): number {
  return Math.round(view.scale * 100);
}

/**
 * The safe area's inset in print pixels: an eighth of an inch at the print space's DPI, the margin
 * print shops keep text and faces out of, since cutting and sewing may take it.
 */
export function safeInset(dpi: number): number {
  return Math.round(dpi / 8);
}
