import { describe, expect, it } from 'vitest';
import dpiTable from '../../../../schema/testdata/twins/dpi.json';
import placementTable from '../../../../schema/testdata/twins/replace-placement.json';
import type { DesignDocument, ImageObject } from '../document';
import { EDITOR, effectiveDpi, qualityOf, replaceImage, scaleCap } from './index';

// The shared tables of schema/testdata/twins, also read by renderer/dpi's and worker/bulk's Go tests: the editor's
// resolution badge and replace follow the same rules as the print file's report and a bulk replace.

describe('the resolution rule (schema/testdata/twins/dpi.json)', () => {
  it.each(dpiTable.effective.map((c) => [c.name, c] as const))('effective DPI: %s', (_, c) => {
    const got = effectiveDpi({ width: c.source_width, height: c.source_height }, { width: c.placed_width, height: c.placed_height }, c.dpi);
    expect(Math.abs(got - c.want)).toBeLessThanOrEqual(1e-9);
  });

  it.each(dpiTable.quality.map((c) => [c.name, c] as const))('quality: %s', (_, c) => {
    expect(qualityOf(c.effective, c.dpi, c.min_dpi)).toBe(c.want);
  });

  it.each(dpiTable.scale_cap.map((c) => [c.name, c] as const))('scale cap: %s', (_, c) => {
    // null is no cap, which scaleCap says with Infinity.
    expect(scaleCap({ width: 1, height: 1, dpi: c.dpi, minDpi: c.min_dpi })).toBe(c.want ?? Infinity);
  });
});

describe('the replace placement (schema/testdata/twins/replace-placement.json)', () => {
  it('has the table’s aspect tolerance', () => {
    expect(EDITOR.aspectTolerance).toBe(placementTable.aspect_tolerance);
  });

  it.each(placementTable.cases.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const placed: ImageObject = { type: 'image', id: 'art', src: 'u/1/old.png', ...c.box };
    const doc: DesignDocument = { version: 1, printSpace: { width: 4500, height: 5400, dpi: 300, minDpi: 150 }, objects: [placed] };
    const got = replaceImage(doc, 'art', { src: 'u/1/new.png', ...c.artwork }).objects[0] as ImageObject;
    expect(got.src).toBe('u/1/new.png');
    for (const k of ['x', 'y', 'width', 'height'] as const) {
      expect(Math.abs(got[k] - c.want[k]), `${k}: ${got[k]}, want ${c.want[k]}`).toBeLessThanOrEqual(1e-9);
    }
  });
});
