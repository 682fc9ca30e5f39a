import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { canvasPng } from './support/images';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/** Names unique to this run, so a second run on the same stack finds its own campaign and upload. */
const RUN = Date.now().toString(36);
const CAMPAIGN = `Mockup tee ${RUN}`;
const ARTWORK = `mockup-art-${RUN}.png`;

/**
 * The stack's local blob folder (scripts/test and the README's private stack export PRESSROOM_DATA_DIR), where a test can
 * take a mockup template away to make its mockup fail for real; `~blob` is the local store's object file suffix.
 */
const BLOBS = process.env.PRESSROOM_DATA_DIR ? join(process.env.PRESSROOM_DATA_DIR, 'blobs') : undefined;

/** A 1500x1800 PNG with bold stripes, drawn by Chromium's own canvas (no fixture file). */
function makeArtwork(page: Page): Promise<Buffer> {
  return canvasPng(
    page,
    (colors) => {
      const canvas = new OffscreenCanvas(1500, 1800);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2d context');
      colors.forEach((color, i) => {
        ctx.fillStyle = color;
        ctx.fillRect(0, i * 300, 1500, 300);
      });
      return canvas;
    },
    ['#e03131', '#f08c00', '#2f9e44', '#1971c2', '#6741d9', '#c2255c'],
  );
}

/** The size of the image an `<img>` shows, once loaded ('' before). */
const shownSize = (img: HTMLImageElement) => (img.complete ? `${img.naturalWidth}x${img.naturalHeight}` : '');

/** The size of the full mockup a card's link opens, fetched and decoded by the page. */
async function fullSize(page: Page, card: ReturnType<Page['locator']>): Promise<string> {
  const href = await card.getByRole('link', { name: /^Open the full / }).getAttribute('href');
  if (!href) throw new Error('mockup card without a link to the full image');
  return page.evaluate(async (url) => {
    const bitmap = await createImageBitmap(await (await fetch(url)).blob());
    return `${bitmap.width}x${bitmap.height}`;
  }, href);
}

/**
 * From the campaigns list: creates campaign `name` of `product` and uploads a fresh artwork named `file`
 * into its editor, waiting for the resolution badge; saving is left to the caller.
 */
async function startCampaign(page: Page, name: string, product: string, file: string): Promise<void> {
  await page.getByRole('button', { name: 'New campaign' }).click();
  const dialog = page.getByRole('dialog', { name: 'New campaign' });
  await dialog.getByLabel('Campaign name').fill(name);
  await dialog.getByText(product, { exact: true }).click();
  await dialog.getByRole('button', { name: 'Create campaign' }).click();
  await page.waitForURL(/\/campaigns\/edit\/\d+$/);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload artwork' }).click();
  await (await chooser).setFiles({ name: file, mimeType: 'image/png', buffer: await makeArtwork(page) }, { timeout: 60_000 });
  await page.getByTestId('resolution-badge').waitFor({ timeout: 60_000 });
}

describe('flat mockups in the campaign editor', () => {
  const browser = suiteBrowser();
  let page: Page;

  beforeAll(async () => {
    ({ page } = await openPage(browser()));
    await signIn(page, DEMO_SELLER);
  });

  /** The T-shirt's flat mockup of a print space; its 3D one ("T-shirt, 3D · front") is another card. */
  const mockup = (space: string) => page.locator('[data-testid="mockup"]').filter({ hasText: `T-shirt, ${space} · ${space}` });

  it('saves a T-shirt design front and back', async () => {
    await page.getByRole('link', { name: 'Campaigns' }).first().click();
    await startCampaign(page, CAMPAIGN, 'T-shirt', ARTWORK);
    await page.getByRole('heading', { name: CAMPAIGN }).waitFor();
    await page.getByText("Save the campaign to see its products' mockups.").waitFor();
    await page.getByRole('tab', { name: /back/ }).click();
    await page.getByRole('button', { name: 'Add text' }).click();
    await page.getByText('1 of 2 texts').waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/Campaign saved/).waitFor();
  });

  it('shows the flat mockups as they are made, as 500 px previews of 2000 px mockups, the front one default', async () => {
    for (const space of ['front', 'back']) {
      const image = mockup(space).getByTestId('mockup-image');
      await image.waitFor({ timeout: 60_000 });
      await expect.poll(() => image.evaluate(shownSize), { timeout: 60_000 }).toBe('500x500');
      expect(await image.getAttribute('src')).toMatch(/_preview\.webp\?v=/);
      expect(await fullSize(page, mockup(space))).toBe('2000x2000');
    }
    expect(await mockup('front').getAttribute('data-default')).toBe('true');
    expect(await mockup('back').getAttribute('data-default')).toBe('false');
    await mockup('front').scrollIntoViewIfNeeded();
    await screenshot(page, 'mockups-gallery');
  }, 120_000);

  it('shows the T-shirt\'s 3D mockup after the flat ones, drawn by the renderer\'s Chrome pool', async () => {
    const model = page.locator('[data-testid="mockup"]').filter({ hasText: 'T-shirt, 3D · front' });
    const image = model.getByTestId('mockup-image');
    await image.waitFor({ timeout: 60_000 });
    await expect.poll(() => image.evaluate(shownSize), { timeout: 30_000 }).toBe('400x500');
    expect(await fullSize(page, model)).toBe('1500x1875');
    expect(await model.getAttribute('data-default')).toBe('false');
  }, 120_000);

  it('makes the back mockup the default, and it stays so after a reload', async () => {
    await page.getByRole('button', { name: 'Make T-shirt, back the default mockup' }).click();
    await expect.poll(() => mockup('back').getAttribute('data-default')).toBe('true');
    expect(await mockup('front').getAttribute('data-default')).toBe('false');
    await page.reload();
    await mockup('back').getByText('Default').waitFor({ timeout: 30_000 });
    expect(await mockup('front').getAttribute('data-default')).toBe('false');
  });

  it('shows the chosen default mockup as the campaign\'s picture in the campaigns list', async () => {
    const chosen = await mockup('back').getByTestId('mockup-image').getAttribute('src');
    expect(chosen).toMatch(/_preview\.webp\?v=/);
    await page.goto('/campaigns');
    await page.getByLabel('Search campaigns').fill(CAMPAIGN);
    const rows = page.getByTestId('campaign-row');
    await expect.poll(() => rows.count()).toBe(1);
    const picture = rows.first().getByRole('img', { name: `${CAMPAIGN} mockup` });
    await expect.poll(() => picture.getAttribute('src'), { timeout: 30_000 }).toBe(chosen);
    expect(await picture.getAttribute('loading')).toBe('lazy');
    await expect.poll(() => picture.evaluate(shownSize), { timeout: 30_000 }).toBe('500x500');
    await screenshot(page, 'campaigns-list-mockup');
  });

  it('shows the 3D mockup of a mug, drawn by the renderer\'s Chrome pool', async () => {
    await page.goto('/campaigns');
    await startCampaign(page, `Mug ${RUN}`, 'Mug wrap', `mug-${ARTWORK}`);

    // Before any save, the editor previews the design on the mug's model in the browser.
    const preview = page.locator('[data-testid="design-3d-preview"][data-drawn="true"] canvas[data-engine]');
    await preview.waitFor({ timeout: 60_000 });
    const saturated = () =>
      preview.evaluate((canvas: HTMLCanvasElement) => {
        const copy = document.createElement('canvas');
        copy.width = canvas.width;
        copy.height = canvas.height;
        const ctx = copy.getContext('2d');
        if (!ctx) return 0;
        ctx.drawImage(canvas, 0, 0);
        const d = ctx.getImageData(0, 0, copy.width, copy.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (Math.max(d[i]!, d[i + 1]!, d[i + 2]!) - Math.min(d[i]!, d[i + 1]!, d[i + 2]!) > 60) n++;
        return n;
      });
    // The artwork's stripes on the mug: the background and the white body are grey.
    await expect.poll(saturated, { timeout: 30_000 }).toBeGreaterThan(2000);
    await page.getByTestId('design-3d-preview').scrollIntoViewIfNeeded();
    await screenshot(page, 'design-3d-preview');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/Campaign saved/).waitFor();

    const flat = page.locator('[data-testid="mockup"]').filter({ hasText: 'Mug, wrap' }).getByTestId('mockup-image');
    const model = page.locator('[data-testid="mockup"]').filter({ hasText: 'Mug, 3D' });
    const image = model.getByTestId('mockup-image');
    await flat.waitFor({ timeout: 60_000 });
    await image.waitFor({ timeout: 60_000 });
    await expect.poll(() => image.evaluate(shownSize), { timeout: 30_000 }).toBe('400x500');
    expect(await fullSize(page, model)).toBe('1500x1875');
    expect(await model.getAttribute('data-default')).toBe('false');
    await model.scrollIntoViewIfNeeded();
    await screenshot(page, 'mockups-3d');
  }, 150_000);

  it.skipIf(!BLOBS)('retries a mockup that failed for real: its template was missing and is back', async () => {
    // The poster's template, which no other e2e file uses, away while the mockup is made.
    const template = join(BLOBS ?? '', 'mockup-templates', 'poster', 'template.json~blob');
    const card = page.locator('[data-testid="mockup"]').filter({ hasText: 'Poster · front' }); // not "Poster, 3D"
    await rename(template, `${template}.away`);
    try {
      await page.goto('/campaigns');
      await startCampaign(page, `Poster ${RUN}`, 'Poster', `poster-${ARTWORK}`);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(/Campaign saved/).waitFor();
      await card.getByTestId('mockup-error').waitFor({ timeout: 60_000 });
      expect(await card.getByTestId('mockup-error').textContent()).toBe('The mockup template of this product is missing or damaged.');
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, 'mockup-failed');
    } finally {
      await rename(`${template}.away`, template);
    }
    await card.getByRole('button', { name: 'Retry the Poster mockup' }).click();
    const image = card.getByTestId('mockup-image');
    await image.waitFor({ timeout: 60_000 });
    expect(await card.getAttribute('data-status')).toBe('done');
    await expect.poll(() => image.evaluate(shownSize), { timeout: 30_000 }).not.toBe('');
  }, 150_000);
});
