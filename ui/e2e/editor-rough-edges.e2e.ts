import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { canvasPng } from './support/images';
import { DEMO_SELLER, PHONE_VIEWPORT, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/** Names unique to this run, so a second run on the same stack finds its own campaign and upload. */
const RUN = Date.now().toString(36);
const CAMPAIGN = `Rough edges ${RUN}`;
/** 600 x 720 px: restricted mode lets it grow to 1200 px wide (300 / 150 DPI) on a 4500 px print area. */
const ARTWORK = `small-art-${RUN}.png`;

function makeSmallArtwork(page: Page): Promise<Buffer> {
  return canvasPng(
    page,
    ({ width, height }) => {
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2d context');
      ctx.fillStyle = '#12b886';
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(width / 4, height / 4, width / 2, height / 2);
      return canvas;
    },
    { width: 600, height: 720 },
  );
}

/** The colours of the design canvas's layers at a point (CSS pixels from its top-left corner), topmost first. */
function layerColours(page: Page, x: number, y: number): Promise<[number, number, number, number][]> {
  return page.evaluate(
    ([px, py]) => {
      const canvases = Array.from(document.querySelectorAll<HTMLCanvasElement>('[data-testid="design-canvas"] canvas'));
      return canvases.reverse().map((c) => {
        const ratio = c.width / c.clientWidth;
        const d = c.getContext('2d')?.getImageData(Math.floor(px * ratio), Math.floor(py * ratio), 1, 1).data;
        return [d?.[0] ?? 0, d?.[1] ?? 0, d?.[2] ?? 0, d?.[3] ?? 0] as [number, number, number, number];
      });
    },
    [x, y] as const,
  );
}

/** The colours of the design canvas's layers along the row y (CSS pixels), for every x from 0, topmost first. */
function rowColours(page: Page, y: number): Promise<[number, number, number, number][][]> {
  return page.evaluate((py) => {
    const canvases = Array.from(document.querySelectorAll<HTMLCanvasElement>('[data-testid="design-canvas"] canvas')).reverse();
    const width = canvases[0]?.clientWidth ?? 0;
    const rows = canvases.map((c) => {
      const ratio = c.width / c.clientWidth;
      return c.getContext('2d')?.getImageData(0, Math.floor(py * ratio), c.width, 1).data ?? new Uint8ClampedArray();
    });
    return Array.from({ length: width }, (_, x) =>
      rows.map((d, i) => {
        const c = canvases[i];
        const at = c ? Math.floor(x * (c.width / c.clientWidth)) * 4 : 0;
        return [d[at] ?? 0, d[at + 1] ?? 0, d[at + 2] ?? 0, d[at + 3] ?? 0] as [number, number, number, number];
      }),
    );
  }, y);
}

/** Whether a colour is close to #rrggbb and drawn. */
function near([r, g, b, a]: [number, number, number, number], hex: string): boolean {
  const n = Number.parseInt(hex.slice(1), 16);
  return a > 100 && Math.abs(r - (n >> 16)) < 60 && Math.abs(g - ((n >> 8) & 255)) < 60 && Math.abs(b - (n & 255)) < 60;
}

describe('the editor’s rough edges in Chromium', () => {
  const browser = suiteBrowser();
  let page: Page;
  let editorUrl = '';

  beforeAll(async () => {
    ({ page } = await openPage(browser()));
    await signIn(page, DEMO_SELLER);
  });

  const canvas = () => page.getByTestId('design-canvas');
  const drawn = () => page.locator('[data-testid="design-canvas"][data-loading="false"]').waitFor({ timeout: 60_000 });

  it('draws the print area and the safe area on the seller’s canvas, as the designer’s view does', async () => {
    await page.getByRole('link', { name: 'Campaigns' }).first().click();
    await page.getByRole('button', { name: 'New campaign' }).click();
    const dialog = page.getByRole('dialog', { name: 'New campaign' });
    await dialog.getByLabel('Campaign name').fill(CAMPAIGN);
    await dialog.getByText('T-shirt', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Create campaign' }).click();
    await page.waitForURL(/\/campaigns\/edit\/\d+$/);
    editorUrl = new URL(page.url()).pathname;
    await drawn();

    await page.getByText('Blue: print area · dashed orange: safe area').waitFor();
    // At 500 px for 4500 print pixels, the print area's edge is the canvas's edge and the safe area (38 print
    // pixels, an eighth of an inch at 300 DPI) about 4 px inside it.
    const edge = await layerColours(page, 1, 250);
    expect(edge.some((c) => near(c, '#228be6')), JSON.stringify(edge)).toBe(true);
    let safe = false;
    for (const y of [240, 243, 246, 249, 252, 255]) {
      if ((await layerColours(page, 4, y)).some((c) => near(c, '#f76707'))) safe = true;
    }
    expect(safe).toBe(true);
  });

  it('zooms out to the T-shirt around the print area, and back', async () => {
    const outlineAt = (row: [number, number, number, number][][]) =>
      row.flatMap((layers, x) => (layers.some((c) => near(c, '#868e96')) ? [x] : []));
    const printAreaAt = (row: [number, number, number, number][][]) =>
      row.flatMap((layers, x) => (layers.some((c) => near(c, '#228be6')) ? [x] : []));

    // The print area fills the canvas: no product line across its middle.
    let row = await rowColours(page, 300);
    expect(outlineAt(row)).toEqual([]);
    expect(printAreaAt(row)[0]).toBeLessThan(3);

    await page.getByRole('button', { name: 'Show the product' }).click();
    await page.locator('[data-testid="design-canvas"][data-product-view="true"]').waitFor();
    await page.getByText('grey: the product', { exact: false }).waitFor();
    row = await rowColours(page, 300);
    const blue = printAreaAt(row);
    const grey = outlineAt(row);
    console.log(`[outline] print area edges at x ${blue[0]}..${blue.at(-1)}, the shirt's at x ${grey[0]}..${grey.at(-1)}`);
    // The print area shrinks to the shirt's chest; the shirt's sides are drawn left and right of it.
    const [left, right] = [blue[0] ?? 0, blue.at(-1) ?? 0];
    expect(left).toBeGreaterThan(100);
    expect(right).toBeLessThan(400);
    expect(grey.some((x) => x < left - 10)).toBe(true);
    expect(grey.some((x) => x > right + 10)).toBe(true);
    // Outside the shirt nothing is drawn.
    expect((row[2] ?? []).every(([, , , a]) => a === 0)).toBe(true);
    await screenshot(page, 'editor-rough-edges-product-outline');
    const only = fileURLToPath(new URL('./screenshots/editor-rough-edges-product-outline-only.png', import.meta.url));
    await canvas().screenshot({ path: only, animations: 'disabled' });

    await page.getByRole('button', { name: 'Show the print area' }).click();
    await page.locator('[data-testid="design-canvas"][data-product-view="false"]').waitFor();
    row = await rowColours(page, 300);
    expect(outlineAt(row)).toEqual([]);
    expect(printAreaAt(row)[0]).toBeLessThan(3);
  });

  it('says on the canvas why restricted mode stops a low-resolution artwork from growing', async () => {
    const png = await makeSmallArtwork(page);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload artwork' }).click();
    await (await chooser).setFiles({ name: ARTWORK, mimeType: 'image/png', buffer: png }, { timeout: 60_000 });
    const width = page.getByLabel('Width (print px)');
    await expect.poll(() => width.inputValue(), { timeout: 60_000 }).toBe('1200');
    await drawn();

    // The artwork is 1200 x 1440 print pixels, centred: its bottom-right handle is at (316.7, 380) on screen.
    const box = await canvas().boundingBox();
    if (!box) throw new Error('the design canvas is not on screen');
    await page.mouse.move(box.x + 316.7, box.y + 380);
    await page.mouse.down();
    await page.mouse.move(box.x + 420, box.y + 500, { steps: 20 });
    await page.mouse.up();
    const refusal = page.getByTestId('canvas-refusal');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(
      'This artwork is 600 × 720 px: wider than 1200 px it would print below 150 DPI, which restricted mode does not allow. ' +
        'Upload a larger file, or turn restricted mode off.',
    );
    expect(await width.inputValue()).toBe('1200');
    await screenshot(page, 'editor-rough-edges-restricted-canvas');
    // The canvas alone, its refusal readable (the full page puts the fixed header over it).
    const only = fileURLToPath(new URL('./screenshots/editor-rough-edges-restricted-canvas-only.png', import.meta.url));
    await canvas().screenshot({ path: only, animations: 'disabled' });

    // The width field says the same where it is typed.
    await width.fill('2000');
    await width.press('Enter');
    await page.getByText(/^This artwork is 600 × 720 px: wider than 1200 px/).first().waitFor();
    expect(await width.inputValue()).toBe('1200');
    await width.fill('0');
    await width.press('Enter');
    await page.getByText('The width must be from 1 to 200000.').waitFor();
  });

  it('adds text at a size that spans most of the print area, and explains cut pastes and refused sizes', async () => {
    await page.getByRole('button', { name: 'Add text' }).click();
    const size = page.getByLabel('Size', { exact: true });
    // "Hello" in Roboto is about 2.3 ems: 80% of 4500 px makes a size of about 1550.
    const fontSize = Number(await size.inputValue());
    expect(fontSize).toBeGreaterThan(1300);
    expect(fontSize).toBeLessThan(1800);

    const text = page.getByLabel('Text', { exact: true });
    await text.fill('Twenty characters!!!');
    expect(await text.inputValue()).toBe('Twenty character');
    await page.getByText('This text holds at most 16 characters: the last 4 characters were left out.').waitFor();

    for (const typed of ['0', '-5', '99999']) {
      await size.fill(typed);
      await page.getByText('The size must be from 1 to 5400.').waitFor();
    }
    await size.blur();
    expect(await size.inputValue()).toBe(String(fontSize));
    await screenshot(page, 'editor-rough-edges-text');
  });

  it('keeps the unsaved work through a reload and restores it', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await page.reload();
    const offer = page.getByTestId('draft-offer');
    await offer.waitFor({ timeout: 30_000 });
    expect(await page.getByText('0 of 2 texts').count()).toBe(1);
    await screenshot(page, 'editor-rough-edges-draft-offer');
    await page.getByRole('button', { name: 'Restore changes' }).click();
    await page.getByText('1 of 2 texts').waitFor();
    await drawn();
    expect(await offer.count()).toBe(0);
  });

  it('fits the canvas to a 390 px wide screen', async () => {
    const phone = await openPage(browser(), PHONE_VIEWPORT);
    try {
      await signIn(phone.page, DEMO_SELLER);
      await phone.page.goto(editorUrl);
      const phoneCanvas = phone.page.getByTestId('design-canvas');
      await phoneCanvas.waitFor();
      await phone.page.getByRole('button', { name: 'Add text' }).click();
      await phone.page.locator('[data-testid="design-canvas"][data-loading="false"]').waitFor({ timeout: 60_000 });
      const box = await phoneCanvas.boundingBox();
      if (!box) throw new Error('the design canvas is not on screen');
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
      expect(box.width).toBeGreaterThan(250);
      // The print area keeps its proportions: 4500 x 5400.
      expect(box.height / box.width).toBeCloseTo(5400 / 4500, 1);
      const pageWidth = await phone.page.evaluate(() => document.documentElement.scrollWidth);
      console.log(`[phone] canvas ${box.width.toFixed(0)}x${box.height.toFixed(0)} at x ${box.x.toFixed(0)}; page ${pageWidth} px wide`);
      await screenshot(phone.page, 'editor-rough-edges-phone');
    } finally {
      await phone.context.close();
    }
  });

  it('keeps a 255-character campaign name on the screen, in the editor and the campaigns list', async () => {
    // The longest name a campaign may have, without a space to break at.
    const long = `W${RUN}${'W'.repeat(255 - 1 - RUN.length)}`;
    await page.goto('/campaigns');
    await page.getByRole('button', { name: 'New campaign' }).click();
    const dialog = page.getByRole('dialog', { name: 'New campaign' });
    await dialog.getByLabel('Campaign name').fill(long);
    await dialog.getByText('T-shirt', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Create campaign' }).click();
    await page.waitForURL(/\/campaigns\/edit\/\d+$/);
    // The name's own box, not only the page: a layout that hides overflow would still cut the name off.
    const onScreen = async (what: string, name: Locator) => {
      const box = await name.boundingBox();
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
      expect(box && box.x + box.width, `${what}: the name ends at ${box && box.x + box.width} px`).toBeLessThanOrEqual(widths.view);
      expect(widths.page, `${what}: the page is ${widths.page} px wide in a ${widths.view} px window`).toBeLessThanOrEqual(widths.view);
    };
    const title = page.getByRole('heading', { level: 1, name: long });
    await title.waitFor();
    expect(await title.getAttribute('title')).toBe(long);
    await onScreen('the editor', title);
    await screenshot(page, 'editor-rough-edges-long-name');
    await page.goto('/campaigns');
    const link = page.getByRole('link', { name: long });
    await link.waitFor();
    expect(await link.getAttribute('title')).toBe(long);
    await onScreen('the campaigns list', link);
    await screenshot(page, 'editor-rough-edges-long-name-list');
  });
});
