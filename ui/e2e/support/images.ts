import type { Page } from 'playwright-core';

/**
 * A PNG drawn by Chromium's own canvas (no fixture files): `paint` runs in the page with `arg` and returns the
 * OffscreenCanvas it drew on; the canvas is then encoded in the page and handed back as bytes.
 */
export async function canvasPng<A>(page: Page, paint: (arg: A) => OffscreenCanvas, arg: A): Promise<Buffer> {
  // A plain JSON argument reaches the page as it is (Playwright's Unboxed<A> is A for it).
  const canvas = await page.evaluateHandle(paint as (arg: unknown) => OffscreenCanvas, arg);
  const base64 = await canvas.evaluate(async (c) => {
    const bytes = new Uint8Array(await (await c.convertToBlob({ type: 'image/png' })).arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  });
  await canvas.dispose();
  return Buffer.from(base64, 'base64');
}
