import { describe, expect, it } from 'vitest';
import { isPng, pngWidth, stripForUpload } from './pngStrip';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function u32(n: number): number[] {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

/** A chunk with a dummy CRC: the filter never checks CRCs, it copies them. */
function chunk(type: string, data: number[]): number[] {
  return [...u32(data.length), ...[...type].map((c) => c.charCodeAt(0)), ...data, 1, 2, 3, 4];
}

function png(width: number, extra: number[][] = []): Uint8Array {
  const ihdr = chunk('IHDR', [...u32(width), ...u32(10), 8, 6, 0, 0, 0]);
  return new Uint8Array([
    ...SIGNATURE,
    ...ihdr,
    ...extra.flat(),
    ...chunk('IDAT', [1, 2, 3, 4, 5]),
    ...chunk('IEND', []),
  ]);
}

const xmp = chunk('iTXt', [...'XML:com.adobe.xmp'].map((c) => c.charCodeAt(0)).concat(new Array(1000).fill(32)));
const text = chunk('tEXt', [...'Software\0Photoshop'].map((c) => c.charCodeAt(0)));
const ztxt = chunk('zTXt', [1, 2, 3]);
const phys = chunk('pHYs', [0, 0, 46, 35, 0, 0, 46, 35, 1]);

describe('stripForUpload', () => {
  it('removes text chunks from a PNG wider than 1500 px and keeps every other byte', () => {
    const input = png(4500, [xmp, phys, text, ztxt]);
    const result = stripForUpload(input);
    expect(result.stripped).toBe(true);
    expect(result.removed).toBe(xmp.length + text.length + ztxt.length);
    expect(Array.from(result.bytes)).toEqual(Array.from(png(4500, [phys])));
  });

  it('keeps a PNG of 1500 px or less byte for byte', () => {
    const input = png(1500, [xmp]);
    const result = stripForUpload(input);
    expect(result.stripped).toBe(false);
    expect(result.bytes).toBe(input);
  });

  it('strips a PNG whose width cannot be read', () => {
    const input = new Uint8Array([...SIGNATURE, ...text, ...chunk('IDAT', [1]), ...chunk('IEND', [])]);
    expect(pngWidth(input)).toBeNull();
    const result = stripForUpload(input);
    expect(result.stripped).toBe(true);
    expect(result.bytes.length).toBe(input.length - text.length);
  });

  it('leaves other files alone', () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    expect(isPng(jpeg)).toBe(false);
    expect(stripForUpload(jpeg).bytes).toBe(jpeg);
    const textFile = new TextEncoder().encode('hello, I am a renamed text file');
    expect(stripForUpload(textFile).bytes).toBe(textFile);
  });

  it('returns a truncated PNG unchanged', () => {
    const input = png(4000, [xmp]).subarray(0, 60);
    expect(stripForUpload(input).bytes).toBe(input);
  });

  it('returns a wide PNG without text chunks unchanged', () => {
    const input = png(3000, [phys]);
    expect(stripForUpload(input).bytes).toBe(input);
  });
});
