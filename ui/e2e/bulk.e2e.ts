import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from './support/accounts';
import { canvasPng } from './support/images';
import {
  DEMO_SELLER,
  openPage,
  screenshot,
  signIn,
  suiteBrowser,
  tokenCookie,
} from './support/stack';

/** Artworks of one bulk import in this test; the bar is 20. */
const ARTWORKS = 20;

/** PNG files of size x size in distinct colours, drawn by the browser itself. */
async function artworks(page: Page, count: number, size: number): Promise<{ name: string; mimeType: string; buffer: Buffer }[]> {
  const out = [];
  for (let i = 0; i < count; i++) {
    const buffer = await canvasPng(
      page,
      ({ hue, size }) => {
        const canvas = new OffscreenCanvas(size, size);
        const ctx = canvas.getContext('2d');
        if (!ctx) throw new Error('no 2d context');
        ctx.fillStyle = `hsl(${hue}, 70%, 50%)`;
        ctx.fillRect(0, 0, size, size);
        return canvas;
      },
      { hue: (i * 360) / count, size },
    );
    out.push({ name: `art-${i + 1}.png`, mimeType: 'image/png', buffer });
  }
  return out;
}

/** The data of a bff call as the signed-in seller; a refusal fails the test. */
async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await api<T>(method, path, token, body);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.body.message}`);
  return answer.body.data;
}

describe('bulk import of artworks', () => {
  const browser = suiteBrowser();

  it('uploads 20 artworks to a bulk import and watches every record complete in the worker table', async () => {
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    const token = decodeURIComponent((await tokenCookie(context)) ?? '').replace(/^Bearer /, '');

    // A template campaign on the T-shirt; each artwork goes on its front.
    const templates = await call<{ id: number; name: string }[]>(token, 'GET', '/seller/product-templates');
    const tshirt = templates.find((t) => t.name === 'T-shirt');
    expect(tshirt).toBeDefined();
    const campaign = await call<{ id: number }>(token, 'POST', '/seller/campaigns', {
      name: 'Bulk e2e template',
      kind: 'regular',
      template_ids: [tshirt?.id],
    });

    // The way in: the Campaigns page links to the bulk campaigns.
    await page.goto('/campaigns');
    await page.getByRole('main').getByRole('link', { name: 'Bulk campaigns' }).click(); // the menu has one too
    await page.waitForURL(/\/bulk-campaigns$/);

    await page.goto(`/bulk-campaigns/multi-print-spaces/import/${campaign.id}`);
    await page.getByRole('heading', { name: 'Import artworks' }).waitFor();
    await page.getByRole('combobox', { name: 'Print space' }).click();
    await page.getByRole('option', { name: 'front' }).click();
    await page.getByLabel('Name of this import').fill('E2E drop');
    // A few picked with the file dialog, the rest dropped on the drop zone, as a seller with hundreds would.
    const files = await artworks(page, ARTWORKS, 600);
    await page.locator('input[type="file"]').setInputFiles(files.slice(0, 5));
    const dataTransfer = await page.evaluateHandle(
      (dropped) => {
        const transfer = new DataTransfer();
        for (const f of dropped) transfer.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
        return transfer;
      },
      files.slice(5).map((f) => ({ name: f.name, mimeType: f.mimeType, data: f.buffer.toString('base64') })),
    );
    await page.getByTestId('artwork-drop-zone').dispatchEvent('drop', { dataTransfer });
    await page.getByText(`${ARTWORKS} artwork files chosen`).waitFor();
    await page.getByRole('button', { name: 'Upload and create records' }).click();

    // The list of the import, with its progress summary, refreshing by itself.
    await page.waitForURL(/\/bulk-campaigns\/multi-print-spaces\?bulk_upload_id=\d+/, { timeout: 120_000 });
    const summary = page.getByTestId('bulk-upload-summary');
    await summary.getByText('E2E drop').waitFor();
    await summary.getByText(`${ARTWORKS} of ${ARTWORKS} completed`).waitFor({ timeout: 240_000 });
    await page.locator('[data-testid="bulk-row"][data-status="completed"]').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'bulk-import-completed');

    const uploadId = Number(new URL(page.url()).searchParams.get('bulk_upload_id'));
    const upload = await call<{ total: number; counts: Record<string, number> }>(
      token,
      'GET',
      `/seller/bulk-campaigns/multi-print-spaces/uploads/${uploadId}`,
    );
    expect(upload.total).toBe(ARTWORKS);
    expect(upload.counts.completed).toBe(ARTWORKS);

    // The Bulk campaigns menu page lists the import and leads into it.
    await page.goto('/bulk-campaigns');
    const row = page.getByTestId('bulk-upload-row').filter({ hasText: 'E2E drop' });
    await row.getByText(`${ARTWORKS} of ${ARTWORKS} records completed`).waitFor();
    await screenshot(page, 'bulk-uploads-list');
    await row.getByRole('link', { name: 'E2E drop' }).click();
    await page.waitForURL(new RegExp(`bulk_upload_id=${uploadId}$`));
    await context.close();
  }, 420_000);
});
