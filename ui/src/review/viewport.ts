/**
 * The deep-zoom viewer's arithmetic that OpenSeadragon does not do for it, free of React: the view shared by
 * viewers that pan and zoom together, the level drawn and the zoom as labelled (the guides are print/guides.ts).
 * The pyramid's last level is the full-size file; each level below is half the one above (renderer/tiles).
 */

import type { Manifest } from '../api/review';

/** A view of a print file: `zoom` CSS pixels per print pixel, centred on the print pixel (x, y). */
export type ViewState = Readonly<{ zoom: number; x: number; y: number }>;

/** The closest zoom-in: 8 screen pixels per print pixel. */
export const MAX_SCALE = 8;

/** Whether two views show the same (within float error, so viewers sharing a view settle). */
export function sameView(a: ViewState | null, b: ViewState): boolean {
  if (!a) return false;
  const close = (p: number, q: number, scale: number) => Math.abs(p - q) <= 1e-6 * scale;
  return close(a.zoom, b.zoom, Math.max(a.zoom, b.zoom)) && close(a.x, b.x, 1 / b.zoom) && close(a.y, b.y, 1 / b.zoom);
}

/**
 * The level whose pixels are the closest not coarser than the screen's, the finest OpenSeadragon draws: at `scale`
 * CSS pixels per print pixel and `pixelRatio` device pixels per CSS pixel, a level downscaled by 2^k is sharp
 * while 2^k <= 1 / (scale * pixelRatio).
 */
export function levelFor(manifest: Manifest, scale: number, pixelRatio = 1): number {
  const last = manifest.levels - 1;
  const density = scale * pixelRatio;
  if (density >= 1) return last;
  const k = Math.floor(Math.log2(1 / density) + 1e-9);
  return Math.max(0, last - k);
}

/** The zoom as the viewer labels it: 100% is one print pixel per CSS pixel. */
export function zoomPercent(zoom: number): number {
  return Math.round(zoom * 100);
}
