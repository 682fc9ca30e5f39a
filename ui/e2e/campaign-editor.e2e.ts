import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { canvasPng } from './support/images';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/** Names unique to this run, so a second run on the same stack finds its own campaign and upload. */
const RUN = Date.now().toString(36);
const CAMPAIGN = `Summer drop ${RUN}`;
const ARTWORK = `art-4500-${RUN}.png`;
const ART_WIDTH = 4500;
const ART_HEIGHT = 5400;

/** A 4500x5400 PNG with a gradient and a grid, encoded by Chromium's own canvas (no fixture file). */
function makeArtwork(page: Page): Promise<Buffer> {
  return canvasPng(
    page,
    ({ width, height }) => {
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2d context');
      // A top-to-bottom gradient: every row is one colour, so the PNG stays small (fast to hand to the page).
      const gradient = ctx.createLinearGradient(0, 0, 0, height);
      gradient.addColorStop(0, '#1c7ed6');
      gradient.addColorStop(1, '#f59f00');
      ctx.fillStyle = gradient;
      ctx.fillRect(0, 0, width, height);
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 12;
      for (let x = 0; x <= width; x += 450) ctx.strokeRect(x, 0, 0, height);
      for (let y = 0; y <= height; y += 450) ctx.strokeRect(0, y, width, 0);
      return canvas;
    },
    { width: ART_WIDTH, height: ART_HEIGHT },
  );
}

/** The IHDR size and the pHYs chunk (pixels per unit x and y, unit 1 = metre) of a PNG. */
function pngFacts(png: Buffer): { width: number; height: number; phys: [number, number, number] | null } {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  const at = png.indexOf('pHYs', 8, 'latin1');
  return {
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    phys: at < 0 ? null : [png.readUInt32BE(at + 4), png.readUInt32BE(at + 8), png.readUInt8(at + 12)],
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

describe('the campaign design editor in Chromium', () => {
  const browser = suiteBrowser();
  let page: Page;

  beforeAll(async () => {
    ({ page } = await openPage(browser()));
    await signIn(page, DEMO_SELLER);
  });

  const badge = () => page.getByTestId('resolution-badge');
  const canvas = () => page.getByTestId('design-canvas');

  /** Clicks the canvas at a point given in display pixels from its top-left corner, once every image is drawn. */
  async function clickCanvas(x: number, y: number): Promise<void> {
    await page.locator('[data-testid="design-canvas"][data-loading="false"]').waitFor({ timeout: 60_000 });
    const box = await canvas().boundingBox();
    if (!box) throw new Error('the design canvas is not on screen');
    await page.mouse.click(box.x + x, box.y + y);
  }

  it('creates a T-shirt campaign from the list', async () => {
    await page.getByRole('link', { name: 'Campaigns' }).first().click();
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    await page.getByRole('button', { name: 'New campaign' }).click();
    const dialog = page.getByRole('dialog', { name: 'New campaign' });
    await dialog.getByRole('button', { name: 'Create campaign' }).click();
    await dialog.getByText('The name field is required.').waitFor();
    await dialog.getByText('Pick at least one product.').waitFor();

    await dialog.getByLabel('Campaign name').fill(CAMPAIGN);
    await dialog.getByText('T-shirt', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Create campaign' }).click();

    await page.waitForURL(/\/campaigns\/edit\/\d+$/);
    await page.getByRole('heading', { name: CAMPAIGN }).waitFor();
    await page.getByRole('tab', { name: /front/ }).waitFor();
    await canvas().waitFor();
  });

  it('uploads a 4500 px artwork and rates it good', async () => {
    const png = await makeArtwork(page);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload artwork' }).click();
    await (await chooser).setFiles({ name: ARTWORK, mimeType: 'image/png', buffer: png }, { timeout: 60_000 });

    console.log(`[artwork] ${ART_WIDTH}x${ART_HEIGHT} PNG of ${png.length} bytes`);
    await badge().waitFor({ timeout: 60_000 });
    expect(await badge().getAttribute('data-quality')).toBe('good');
    expect(await badge().textContent()).toContain('300 DPI');
    // Only the front is designed, so no extra print space is priced yet.
    expect(await page.getByTestId('extra-print-cost').count()).toBe(0);
  });

  it('adds two texts, refuses a third and a seventeenth character', async () => {
    const addText = page.getByRole('button', { name: 'Add text' });
    await addText.click();
    await addText.click();
    await page.getByText('2 of 2 texts').waitFor();
    expect(await page.getByTestId('text-refusal').count()).toBe(0);

    await addText.click();
    await expect.poll(() => page.getByTestId('text-refusal').textContent()).toBe('A print area holds at most 2 texts.');
    await page.getByText('2 of 2 texts').waitFor();

    const text = page.getByLabel('Text', { exact: true });
    await text.fill('');
    await text.pressSequentially('ABCDEFGHIJKLMNOPQ');
    expect(await text.inputValue()).toBe('ABCDEFGHIJKLMNOP');
    await text.fill('Pressroom rocks!!');
    expect(await text.inputValue()).toBe('Pressroom rocks!');
    await screenshot(page, 'campaign-editor-texts');
  });

  it('stays smooth while dragging the 4500 px artwork (frame times, not asserted)', async () => {
    await page.getByLabel('Restricted mode').uncheck();
    await clickCanvas(250, 60);
    await page.getByLabel('Width (print px)').waitFor();

    const box = await canvas().boundingBox();
    if (!box) throw new Error('the design canvas is not on screen');
    await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __framing: boolean };
      w.__frames = [];
      w.__framing = true;
      let last = performance.now();
      const tick = (t: number) => {
        w.__frames.push(t - last);
        last = t;
        if (w.__framing) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.mouse.move(box.x + 250, box.y + 60);
    await page.mouse.down();
    await page.mouse.move(box.x + 330, box.y + 140, { steps: 60 });
    await page.mouse.move(box.x + 250, box.y + 100, { steps: 60 });
    await page.mouse.up();
    const frames = await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __framing: boolean };
      w.__framing = false;
      return w.__frames.slice(1);
    });
    const sorted = [...frames].sort((a, b) => a - b);
    const total = frames.reduce((a, b) => a + b, 0);
    console.log(
      `[frame times] dragging a ${ART_WIDTH}x${ART_HEIGHT} artwork, 120 mouse steps: ${frames.length} frames in ${total.toFixed(0)} ms; ` +
        `p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`,
    );
    expect(frames.length).toBeGreaterThan(0);

    // The drag moved the artwork down by 40 display pixels (one undo step); Ctrl+Z puts it back, Ctrl+Shift+Z again.
    const placed = page.getByText(/px placed at/);
    await expect.poll(() => placed.textContent()).toMatch(/placed at 0, [1-9]\d*$/);
    const moved = await placed.textContent();
    await canvas().focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => placed.textContent()).toBe(`${ART_WIDTH} × ${ART_HEIGHT} px placed at 0, 0`);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => placed.textContent()).toBe(moved);
    await page.keyboard.press('Control+y');
    await page.keyboard.press('Control+z');
    await expect.poll(() => placed.textContent()).toBe(`${ART_WIDTH} × ${ART_HEIGHT} px placed at 0, 0`);
  });

  it('turns the badge from good to low as the artwork grows past its limit', async () => {
    const width = page.getByLabel('Width (print px)');
    await page.getByLabel('Restricted mode').check();
    await width.fill('9500');
    await width.press('Enter');
    // Restricted mode keeps the artwork within the print area.
    await expect.poll(() => width.inputValue()).toBe(String(ART_WIDTH));
    expect(await badge().getAttribute('data-quality')).toBe('good');

    await page.getByLabel('Restricted mode').uncheck();
    await width.fill('7000');
    await width.press('Enter');
    await expect.poll(() => badge().getAttribute('data-quality')).toBe('normal');
    await width.fill('9500');
    await width.press('Enter');
    await expect.poll(() => badge().getAttribute('data-quality')).toBe('low');
    expect(await badge().textContent()).toContain('142 DPI');
    await screenshot(page, 'campaign-editor-low-resolution');
  });

  it('saves, makes a 4500x5400 print file at 300 DPI that downloads and opens', async () => {
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/Campaign saved/).waitFor();

    const front = page.locator('[data-testid="export-row"][data-print-space="front"]');
    await front.waitFor();
    await expect.poll(() => front.getAttribute('data-status'), { timeout: 180_000, interval: 1000 }).toMatch(/^(done|failed)$/);
    expect(await front.getAttribute('data-status'), (await front.textContent()) ?? '').toBe('done');
    expect(await front.getByTestId('print-file-meta').textContent()).toContain('4500×5400 px · 300 DPI');
    expect(await front.getByTestId('dpi-report').textContent()).toContain('Low');
    await screenshot(page, 'campaign-editor-print-file');

    const download = page.waitForEvent('download');
    await front.getByRole('link', { name: /Download/ }).click();
    const file = await (await download).path();
    const png = await readFile(file);
    const facts = pngFacts(png);
    expect(facts.width).toBe(4500);
    expect(facts.height).toBe(5400);
    // 300 DPI = 11811 pixels per metre.
    expect(facts.phys).toEqual([11811, 11811, 1]);

    // It opens: Chromium decodes the downloaded bytes at the print size.
    const decoded = await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      return [bitmap.width, bitmap.height];
    }, png.toString('base64'));
    expect(decoded).toEqual([4500, 5400]);

    // Nothing is left unsaved: the list is reached without a prompt.
    await page.getByRole('link', { name: '← Campaigns' }).click();
    await page.getByRole('link', { name: CAMPAIGN }).waitFor();
  });

  it('finds the campaign in the list by name and kind', async () => {
    const rows = page.getByTestId('campaign-row');
    await page.getByLabel('Search campaigns').fill(RUN);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(CAMPAIGN);
    await screenshot(page, 'campaigns-list');

    await page.getByRole('combobox', { name: 'Kind' }).click();
    await page.getByRole('option', { name: 'Combo' }).click();
    await page.getByText('Oops! No entries found.').waitFor();
  });
});
