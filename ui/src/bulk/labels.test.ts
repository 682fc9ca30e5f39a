import { describe, expect, it } from 'vitest';
import { artworksOf, designsOf } from '../api/bulk';
import { artworkName, codeLabel, importLines, runPool, summarize } from './labels';

describe('designsOf and artworksOf', () => {
  it('writes the designs text and reads it back', () => {
    expect(designsOf('u/1/bulk/cat.png', 'back')).toBe('[{"new_url":"u/1/bulk/cat.png","print_space":"back"}]');
    expect(designsOf('u/1/bulk/cat.png')).toBe('[{"new_url":"u/1/bulk/cat.png"}]');
    expect(artworksOf(designsOf('u/1/a.png', 'front'))).toEqual(['u/1/a.png']);
  });

  it('reads nothing from text that is not the designs shape', () => {
    expect(artworksOf('not json')).toEqual([]);
    expect(artworksOf('{"new_url":"x"}')).toEqual([]);
    expect(artworksOf('[{"print_space":"front"}]')).toEqual(['']);
  });
});

describe('importLines', () => {
  it('takes one URL per line or the first CSV column, skipping headers and blanks', () => {
    const text = 'url,name\n/api/files/u/1/a.png,Cat\n\n"u/1/b.png",Dog\r\n  u/1/c.png  ';
    expect(importLines(text)).toEqual(['/api/files/u/1/a.png', 'u/1/b.png', 'u/1/c.png']);
  });
});

describe('runPool', () => {
  it('runs at most limit at once and keeps the order of the items', async () => {
    let running = 0;
    let peak = 0;
    const out = await runPool([5, 1, 4, 2, 3], 2, async (n, i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3']);
    expect(peak).toBe(2);
  });

  it('answers nothing for no items', async () => {
    expect(await runPool([], 4, () => Promise.resolve(1))).toEqual([]);
  });
});

describe('summarize', () => {
  it('counts completed records as done and failed or stopped ones as failed', () => {
    expect(summarize({ total: 6, counts: { completed: 3, failed: 1, stopped: 1, queued: 1 } })).toEqual({ done: 3, failed: 2, total: 6 });
    expect(summarize({ total: 0, counts: {} })).toEqual({ done: 0, failed: 0, total: 0 });
  });
});

describe('codeLabel', () => {
  it('puts the worker codes in words and leaves plain messages alone', () => {
    expect(codeLabel('APPLY_DESIGN_SUCCESS')).toBe('Artwork applied');
    expect(codeLabel('PRINT_SPACE_IS_MISSING')).toBe('A product of the template lacks this print space.');
    expect(codeLabel('Design url is invalid')).toBe('Design url is invalid');
    // A code the worker adds later still reads as words.
    expect(codeLabel('TEMPLATE_CAMPAIGN_IS_GONE')).toBe('Template campaign is gone');
  });
});

describe('artworkName', () => {
  it('names an artwork by its file name, not its storage path', () => {
    expect(artworkName('u/7/bulk/cat.png')).toBe('cat.png');
    expect(artworkName('/api/files/u/7/bulk/dog.webp?variant=thumb')).toBe('dog.webp');
    expect(artworkName('plain.png')).toBe('plain.png');
  });
});
