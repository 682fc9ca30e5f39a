import { describe, expect, it } from 'vitest';
import type { Manifest } from '../api/review';
import { levelFor, sameView, zoomPercent } from './viewport';

/** The 13500x16200 all-over print: 256 px tiles, 15 levels (2^14 >= 16200). */
const aop: Manifest = { width: 13500, height: 16200, tile_size: 256, levels: 15, format: 'webp' };

describe('levelFor', () => {
  it.each([
    [1, 1, 14],
    [2, 1, 14],
    [0.5, 1, 13],
    [0.5, 2, 14],
    [0.49, 1, 13],
    [0.24, 1, 12],
    [0.25, 1, 12],
    [1 / 64, 1, 8],
    [1e-6, 1, 0],
  ])('at scale %f and pixel ratio %f draws level %i', (scale, ratio, level) => {
    expect(levelFor(aop, scale, ratio)).toBe(level);
  });
});

describe('zoomPercent and sameView', () => {
  it('labels one print pixel per CSS pixel 100%', () => {
    expect(zoomPercent(1)).toBe(100);
    expect(zoomPercent(0.0371)).toBe(4);
  });

  it('takes float error for the same view, and a pixel off for another', () => {
    const view = { zoom: 0.5, x: 6750, y: 8100 };
    expect(sameView(view, { zoom: 0.5 * (1 + 1e-12), x: 6750 + 1e-9, y: 8100 })).toBe(true);
    expect(sameView(view, { zoom: 0.5, x: 6752, y: 8100 })).toBe(false);
    expect(sameView(view, { zoom: 0.51, x: 6750, y: 8100 })).toBe(false);
    expect(sameView(null, view)).toBe(false);
  });
});
