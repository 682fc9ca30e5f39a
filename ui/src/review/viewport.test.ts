import { describe, expect, it } from 'vitest';
import type { Manifest } from '../api/review';
import { fitView, levelFor, pan, safeInset, visibleTiles, zoomAt, zoomPercent } from './viewport';

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

describe('visibleTiles', () => {
  it('at 100% draws only the finest tiles on screen, centre first', () => {
    const viewport = { width: 800, height: 600 };
    // Print pixel (6750, 8100), the file's centre, in the viewport's centre.
    const view = { scale: 1, offsetX: 400 - 6750, offsetY: 300 - 8100 };
    const tiles = visibleTiles(aop, 14, view, viewport);
    const cols = new Set(tiles.map((t) => t.col));
    const rows = new Set(tiles.map((t) => t.row));
    expect([...cols].sort((a, b) => a - b)).toEqual([24, 25, 26, 27]);
    expect([...rows].sort((a, b) => a - b)).toEqual([30, 31, 32]);
    expect(tiles[0]).toMatchObject({ col: 26, row: 31 });
    expect(tiles.length).toBe(12);
  });

  it('when fitted draws the coarse tiles covering the file', () => {
    const viewport = { width: 800, height: 600 };
    const view = fitView(aop, viewport);
    const level = levelFor(aop, view.scale);
    const tiles = visibleTiles(aop, level, view, viewport);
    // Level 10 is 844x1013 pixels: 4x4 tiles for the whole file.
    expect(level).toBe(10);
    expect(tiles.length).toBe(16);
    const right = Math.max(...tiles.map((t) => t.x + t.width));
    const bottom = Math.max(...tiles.map((t) => t.y + t.height));
    expect([right, bottom]).toEqual([13500, 16200]);
  });

  it('draws nothing when the file is off screen', () => {
    expect(visibleTiles(aop, 14, { scale: 1, offsetX: 900, offsetY: 0 }, { width: 800, height: 600 })).toEqual([]);
  });
});

describe('zoomAt and pan', () => {
  it('keeps the print pixel under the pointer', () => {
    const view = { scale: 0.1, offsetX: 50, offsetY: 20 };
    const zoomed = zoomAt(view, 1, 250, 120, { min: 0.01, max: 8 });
    // Print pixel (2000, 1000) was at (250, 120) and still is.
    expect(zoomed.offsetX + 2000 * zoomed.scale).toBeCloseTo(250);
    expect(zoomed.offsetY + 1000 * zoomed.scale).toBeCloseTo(120);
    expect(zoomPercent(zoomed)).toBe(100);
  });

  it('clamps the scale', () => {
    expect(zoomAt({ scale: 1, offsetX: 0, offsetY: 0 }, 100, 0, 0, { min: 0.01, max: 8 }).scale).toBe(8);
  });

  it('moves by the drag', () => {
    expect(pan({ scale: 1, offsetX: 5, offsetY: 5 }, -10, 20)).toEqual({ scale: 1, offsetX: -5, offsetY: 25 });
  });
});

it('keeps an eighth of an inch as the safe margin', () => {
  expect(safeInset(300)).toBe(38);
});
