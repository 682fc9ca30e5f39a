/**
 * The upload rule for PNGs (docs/uploads.md): a PNG wider than
 * 1500 px, or whose width cannot be read, loses its text metadata chunks (tEXt, zTXt, iTXt, where
 * Photoshop puts megabytes of XMP) before upload; every other byte is kept, and other files are
 * unchanged. The server applies the same rule again (render:sanitize); this saves the upload time.
 * Plain TypeScript over bytes: no React, no canvas, pixels untouched.
 */

export const PNG_WIDTH_THRESHOLD = 1500;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const TEXT_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt']);

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && SIGNATURE.every((b, i) => bytes[i] === b);
}

function chunkType(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 4));
}

function uint32(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0);
}

/** The width in the IHDR chunk that must follow the signature, or null when it cannot be read. */
export function pngWidth(bytes: Uint8Array): number | null {
  if (!isPng(bytes) || bytes.length < 24 || chunkType(bytes, 12) !== 'IHDR') return null;
  return uint32(bytes, 16);
}

export interface StripResult {
  bytes: Uint8Array;
  /** The rule applied (a wide PNG, or one of unknown width). */
  stripped: boolean;
  /** Bytes of text chunks removed. */
  removed: number;
}

/**
 * Applies the rule to a file's bytes. A PNG whose chunk structure is broken is returned unchanged
 * (the server refuses or repairs it; the browser never makes it worse).
 */
export function stripForUpload(bytes: Uint8Array): StripResult {
  if (!isPng(bytes)) return { bytes, stripped: false, removed: 0 };
  const width = pngWidth(bytes);
  if (width !== null && width <= PNG_WIDTH_THRESHOLD) return { bytes, stripped: false, removed: 0 };

  const kept: Array<[number, number]> = [[0, 8]];
  let removed = 0;
  let at = 8;
  while (at < bytes.length) {
    if (at + 12 > bytes.length) return { bytes, stripped: true, removed: 0 };
    const length = uint32(bytes, at);
    const end = at + 12 + length;
    if (end > bytes.length) return { bytes, stripped: true, removed: 0 };
    const type = chunkType(bytes, at + 4);
    if (TEXT_CHUNKS.has(type)) {
      removed += end - at;
    } else {
      kept.push([at, end]);
    }
    at = end;
    if (type === 'IEND') break;
  }
  if (removed === 0) return { bytes, stripped: true, removed: 0 };
  // Anything after IEND is kept as it was; the server decides about it.
  if (at < bytes.length) kept.push([at, bytes.length]);
  const out = new Uint8Array(bytes.length - removed);
  let o = 0;
  for (const [start, end] of kept) {
    out.set(bytes.subarray(start, end), o);
    o += end - start;
  }
  return { bytes: out, stripped: true, removed };
}
