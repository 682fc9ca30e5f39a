import { deflateSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BASE_URL,
  DEMO_SELLER,
  openPage,
  screenshot,
  signIn,
  suiteBrowser,
  tokenCookie,
} from './support/stack';

// --- PNG files made here, so the test needs no binary fixtures ----------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGBA PNG of width x height with a pattern, with an XMP iTXt chunk of xmpBytes after IHDR. */
function makePng(width: number, height: number, xmpBytes: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    for (let x = 0; x < width; x++) {
      const p = row + 1 + x * 4;
      raw[p] = (x * 7) & 255;
      raw[p + 1] = (y * 5) & 255;
      raw[p + 2] = ((x + y) * 3) & 255;
      raw[p + 3] = 255;
    }
  }
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  if (xmpBytes > 0) {
    const xmp = Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), Buffer.alloc(xmpBytes, ' ')]);
    parts.push(chunk('iTXt', xmp), chunk('tEXt', Buffer.from('Software\0Adobe Photoshop', 'latin1')));
  }
  parts.push(chunk('IDAT', deflateSync(raw, { level: 1 })), chunk('IEND', new Uint8Array()));
  return Buffer.concat(parts);
}

/** The chunks of a PNG as [type, data]. */
function chunks(png: Uint8Array): Array<[string, Buffer]> {
  const b = Buffer.from(png);
  const out: Array<[string, Buffer]> = [];
  for (let at = 8; at + 12 <= b.length; ) {
    const length = b.readUInt32BE(at);
    out.push([b.toString('latin1', at + 4, at + 8), b.subarray(at + 8, at + 8 + length)]);
    at += 12 + length;
  }
  return out;
}

/** IHDR and the compressed image data: equal means identical pixels. */
function pixelChunks(png: Uint8Array): Buffer {
  return Buffer.concat(chunks(png).filter(([t]) => t === 'IHDR' || t === 'IDAT').map(([, d]) => d));
}

// --- the test --------------------------------------------------------------------------------

interface Upload {
  id: number;
  file_name: string;
  status: string;
  message: string;
  fileUrl: string;
  width: number;
  stripped: boolean;
}

/** Names unique to this run, so a second run on the same stack finds its own uploads. */
const RUN = Date.now().toString(36);
const WIDE = `wide-${RUN}.png`;
const NARROW = `narrow-${RUN}.png`;
const NOTES = `notes-${RUN}.png`;

describe('uploading artwork in Chromium', () => {
  const browser = suiteBrowser();
  let context: BrowserContext;
  let page: Page;
  let token = '';

  beforeAll(async () => {
    ({ context, page } = await openPage(browser()));
    await signIn(page, DEMO_SELLER);
    const cookie = decodeURIComponent((await tokenCookie(context)) ?? '');
    token = cookie.replace(/^Bearer\s+/i, '');
    await page.goto('/personalized/artworks');
    await page.getByRole('heading', { name: 'Artworks' }).waitFor();
  });

  async function uploads(): Promise<Upload[]> {
    const response = await fetch(`${BASE_URL}/api/uploads?per_page=100`, { headers: { Authorization: `Bearer ${token}` } });
    return ((await response.json()) as { data: Upload[] }).data;
  }

  /** Chooses a file with the page's upload button and waits for its card to leave "pending". */
  async function uploadThroughPage(name: string, body: Buffer): Promise<Upload> {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload artwork' }).click();
    await (await chooser).setFiles({ name, mimeType: name.endsWith('.png') ? 'image/png' : 'application/octet-stream', buffer: body });
    await expect.poll(async () => (await uploads()).find((u) => u.file_name === name)?.status, { timeout: 30_000 }).not.toMatch(
      /^(pending|undefined)?$/,
    );
    const found = (await uploads()).find((u) => u.file_name === name);
    if (!found) throw new Error(`no upload named ${name}`);
    return found;
  }

  async function stored(upload: Upload): Promise<Uint8Array> {
    const response = await fetch(`${BASE_URL}${upload.fileUrl}`);
    expect(response.status).toBe(200);
    return new Uint8Array(await response.arrayBuffer());
  }

  it('strips the XMP of a 4500 px PNG and keeps its pixels', async () => {
    const original = makePng(4500, 300, 2 << 20);
    const upload = await uploadThroughPage(WIDE, original);
    expect(upload.status).toBe('ready');
    expect(upload.width).toBe(4500);
    expect(upload.stripped).toBe(true);
    const file = await stored(upload);
    expect(chunks(file).map(([t]) => t)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(pixelChunks(file).equals(pixelChunks(original))).toBe(true);
    expect(file.length).toBeLessThan(original.length - (2 << 20));
  });

  it('stores a 1000 px PNG byte for byte', async () => {
    const original = makePng(1000, 200, 20_000);
    const upload = await uploadThroughPage(NARROW, original);
    expect(upload.status).toBe('ready');
    expect(Buffer.from(await stored(upload)).equals(original)).toBe(true);
  });

  it('refuses a renamed text file with a clear message', async () => {
    const upload = await uploadThroughPage(NOTES, Buffer.from('These are my notes, not an image.\n'));
    expect(upload.status).toBe('rejected');
    expect(upload.message).toBe('The file is not a PNG, JPEG or WebP image.');
    await page.getByText('Upload file failed').waitFor();
    await page.getByText('The file is not a PNG, JPEG or WebP image.').first().waitFor();
    expect((await fetch(`${BASE_URL}${upload.fileUrl}`)).status).toBe(404);
    await screenshot(page, 'uploads-rejected');
  });

  it('serves the design variant as WebP and shows thumbnails', async () => {
    const upload = (await uploads()).find((u) => u.file_name === WIDE);
    if (!upload) throw new Error(`${WIDE} missing`);
    const response = await fetch(`${BASE_URL}${upload.fileUrl}?variant=design`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toContain('immutable');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.toString('latin1', 0, 4)).toBe('RIFF');
    expect(body.toString('latin1', 8, 12)).toBe('WEBP');

    await page.reload();
    const thumb = page.getByRole('img', { name: WIDE });
    await thumb.waitFor();
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await screenshot(page, 'uploads');
  });
});
