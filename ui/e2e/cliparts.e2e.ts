import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/accounts';
import { canvasPng } from './support/images';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser, tokenCookie } from './support/stack';

// The seller's clipart library and the artworks page (docs/cliparts.md, docs/uploads.md): a PNG and an SVG clipart
// uploaded into a folder (the SVG drawn at print size by the renderer), a hostile SVG refused with its message, a
// clipart placed in the campaign editor and saved, the print file made from it; an artwork filed in a folder and
// its deletion refused while a campaign uses it, naming the campaign.

const here = path.dirname(fileURLToPath(import.meta.url));
/** An Illustrator export (a style sheet, a DOCTYPE, a title): the smiley of the renderer's golden tests. */
const SMILEY = path.resolve(here, '../../renderer/svgraster/testdata/illustrator.svg');
const RUN = Date.now().toString(36);
let attempt = 0;
/** A name of this run and attempt: a retried test makes its own folders and campaigns. */
const named = (what: string) => `${what} ${RUN}-${attempt}`;
/** The SVG clipart's name in this attempt. */
const smileyName = () => `smiley-${RUN}-${attempt}`;
const HOSTILE = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(document.cookie)"><circle r="5"/></svg>`;

interface Clipart {
  id: number;
  name: string;
  key: string;
  status: string;
  width: number | null;
  height: number | null;
  folder_id: number | null;
}

/** A 600 x 600 paw print on a transparent background, drawn by Chromium's canvas. */
function paw(page: Page): Promise<Buffer> {
  return canvasPng(
    page,
    () => {
      const c = new OffscreenCanvas(600, 600);
      const g = c.getContext('2d')!;
      g.fillStyle = '#6d4c41';
      g.beginPath();
      g.ellipse(300, 380, 150, 130, 0, 0, Math.PI * 2);
      g.fill();
      for (const [x, y] of [[150, 200], [250, 120], [350, 120], [450, 200]] as const) {
        g.beginPath();
        g.ellipse(x, y, 55, 70, 0, 0, Math.PI * 2);
        g.fill();
      }
      return c;
    },
    null,
  );
}

/** Makes a folder on the page shown (artworks or cliparts) and answers its id. */
async function makeFolder(page: Page, kind: 'artwork' | 'clipart', name: string): Promise<number> {
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill(name);
  const made = page.waitForResponse((r) => r.url().endsWith(`/api/seller/${kind}-folders`) && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const res = await made;
  expect(res.status()).toBe(201);
  await page.getByTestId('folder-list').getByText(name).waitFor();
  return ((await res.json()) as { data: { id: number } }).data.id;
}

async function upload(page: Page, button: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  // The toast of the last upload sits over the page's buttons for its few seconds, as a person would see.
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached' });
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles(file);
}

describe('cliparts and artworks in Chromium', () => {
  const browser = suiteBrowser();
  let page: Page;
  let token = '';
  const cliparts: Clipart[] = [];
  const folders: { kind: string; id: number }[] = [];

  beforeAll(async () => {
    ({ page } = await openPage(browser()));
    await signIn(page, DEMO_SELLER);
    token = (await tokenCookie(page.context())) ?? '';
  });

  afterAll(async () => {
    // Leave the library as found: the cliparts leave it (files stay for the campaign that uses one), the folders go.
    for (const c of cliparts) await api('DELETE', `/seller/cliparts/${c.id}`, token);
    for (const f of folders) await api('DELETE', `/seller/${f.kind}-folders/${f.id}`, token);
  });

  it('uploads a PNG and an SVG clipart into a folder, and refuses a hostile SVG with its message', async () => {
    attempt++;
    const mine: Clipart[] = [];
    await page.goto('/personalized/cliparts');
    await page.getByRole('heading', { name: 'Cliparts', exact: true }).waitFor();
    const folder = await makeFolder(page, 'clipart', named('Stickers'));
    folders.push({ kind: 'clipart', id: folder });

    for (const file of [
      { name: `paw-${RUN}-${attempt}.png`, mimeType: 'image/png', buffer: await paw(page) },
      { name: `${smileyName()}.svg`, mimeType: 'image/svg+xml', buffer: await readFile(SMILEY) },
    ]) {
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/seller/cliparts') && r.request().method() === 'POST');
      await upload(page, 'Upload clipart', file);
      const res = await answer;
      expect(res.status()).toBe(201);
      mine.push(((await res.json()) as { data: Clipart }).data);
    }
    cliparts.push(...mine); // afterAll removes every attempt's cliparts
    expect(mine.map((c) => c.folder_id)).toEqual([folder, folder]);
    // The renderer checks the PNG and draws the SVG at print size; the cards follow until both are ready.
    const ready = page.locator('[data-testid="clipart-card"][data-status="ready"]');
    await expect.poll(() => ready.count(), { timeout: 120_000, interval: 1000 }).toBe(2);
    const smiley = page.locator(`[data-testid="clipart-card"][data-name="${smileyName()}"]`);
    expect(await smiley.getByTestId('clipart-meta').textContent()).toBe('SVG · 4000×4000 px (drawn from the SVG)');
    await expect
      .poll(() => smiley.locator('img').evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 30_000 })
      .toBeGreaterThan(0);

    await upload(page, 'Upload clipart', { name: 'evil.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(HOSTILE) });
    await expect
      .poll(() => page.getByTestId('clipart-refusal').textContent())
      .toContain('The SVG contains an event handler (onload), which is not accepted.');
    expect(await page.locator('[data-testid="clipart-card"]').count()).toBe(2);
    await screenshot(page, 'cliparts-page');

    await page.getByLabel('Search cliparts by name').fill(smileyName());
    await expect.poll(() => page.locator('[data-testid="clipart-card"]').count()).toBe(1);
  }, 240_000);

  it('places a clipart in the campaign editor, saves, and prints it', async () => {
    const smiley = cliparts.at(-1)!;
    const CAMPAIGN = named('Clipart tee');
    await page.goto('/campaigns');
    await page.getByRole('button', { name: 'New campaign' }).click();
    const dialog = page.getByRole('dialog', { name: 'New campaign' });
    await dialog.getByLabel('Campaign name').fill(CAMPAIGN);
    await dialog.getByText('T-shirt', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Create campaign' }).click();
    await page.waitForURL(/\/campaigns\/edit\/\d+$/);
    const campaignId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.locator('[data-testid="design-canvas"]').waitFor();

    await page.getByTestId('artwork-source').getByText('Cliparts', { exact: true }).click();
    await page.getByLabel('Search cliparts').fill(smileyName());
    await page.getByRole('button', { name: `Add ${smileyName()}` }).click();
    await page.getByLabel('Width (print px)').waitFor();
    // The canvas draws the clipart's design-size WebP, which the renderer makes on first request.
    await page.locator('[data-testid="design-canvas"][data-loading="false"]').waitFor({ timeout: 120_000 });
    await screenshot(page, 'cliparts-editor');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/Campaign saved/).waitFor();
    const saved = await api<{ designs: { design_json: { objects: { type: string; src?: string }[] } }[] }>(
      'GET', `/seller/campaigns/${campaignId}`, token);
    const image = saved.body.data.designs[0]?.design_json.objects.find((o) => o.type === 'image');
    expect(image?.src).toBe(smiley.key);
    const front = page.locator('[data-testid="export-row"][data-print-space="front"]');
    await expect.poll(() => front.getAttribute('data-status'), { timeout: 180_000, interval: 1000 }).toMatch(/^(done|failed)$/);
    expect(await front.getAttribute('data-status'), (await front.textContent()) ?? '').toBe('done');
  }, 300_000);

  it('files an artwork in a folder and refuses to delete it while a campaign uses it, naming the campaign', async () => {
    attempt++;
    const ART_FOLDER = named('Logos');
    const ART_CAMPAIGN = named('Logo tee');
    const art = await paw(page);
    await page.goto('/personalized/artworks');
    await page.getByRole('heading', { name: 'Artworks', exact: true }).waitFor();
    folders.push({ kind: 'artwork', id: await makeFolder(page, 'artwork', ART_FOLDER) });

    const complete = page.waitForResponse((r) => r.url().endsWith('/api/uploads/complete'));
    await upload(page, 'Upload artwork', { name: `logo-${RUN}.png`, mimeType: 'image/png', buffer: art });
    const key = ((await (await complete).json()) as { data: { filePath: string } }).data.filePath;
    const card = page.locator(`[data-testid="upload-card"][data-name="logo-${RUN}.png"]`);
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 60_000, interval: 500 }).toBe('ready');

    // A campaign uses it (saved through the API the editor uses).
    const created = await api<{ id: number; products: { id: number; personalized: boolean }[] }>('POST', '/seller/campaigns', token, {
      name: ART_CAMPAIGN, kind: 'regular', template_ids: [await tshirtTemplate(token)],
    });
    const camp = created.body.data;
    const doc = {
      version: 1,
      printSpace: { name: 'front', width: 4500, height: 5400, dpi: 300, minDpi: 150, printType: 0 },
      objects: [{ type: 'image', id: 'art-1', src: key, x: 1000, y: 1000, width: 2500, height: 2500, rotation: 0 }],
    };
    const save = await api('PUT', `/seller/campaigns/${camp.id}`, token, {
      name: ART_CAMPAIGN, products: camp.products.map((p) => ({ id: p.id, personalized: p.personalized })),
      designs: [{ product_id: camp.products[0]!.id, print_space: 'front', design_json: doc }],
    });
    expect(save.status).toBe(200);
    await page.reload();
    await page.getByTestId('folder-list').getByText(ART_FOLDER).click();
    await expect.poll(() => card.getByTestId('artwork-usage').textContent()).toBe('Used in 1 campaign');
    await expect
      .poll(() => card.locator('img').evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { timeout: 60_000 })
      .toBeGreaterThan(0);

    await card.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this artwork?' });
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    const refusal = dialog.getByTestId('artwork-refusal');
    await expect
      .poll(() => refusal.textContent())
      .toContain(`This artwork cannot be deleted: it is used by the campaign “${ART_CAMPAIGN}”. Remove it from the campaigns first.`);
    expect(await refusal.getByRole('link', { name: ART_CAMPAIGN }).getAttribute('href')).toBe(`/campaigns/edit/${camp.id}`);
    await screenshot(page, 'artworks-delete-refused');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await screenshot(page, 'artworks-folder');
  }, 240_000);
});

async function tshirtTemplate(token: string): Promise<number> {
  const templates = await api<{ id: number; name: string }[]>('GET', '/seller/product-templates', token);
  const tee = templates.body.data.find((t) => t.name === 'T-shirt');
  if (!tee) throw new Error('no T-shirt template');
  return tee.id;
}
