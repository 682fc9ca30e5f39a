import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN } from './support/accounts';
import { buy, orderIdOf, sql, STORE_URL } from './support/shop';
import { DEMO_PASSWORD, DEMO_SELLER, openPage, screenshot, submitLogin, suiteBrowser, waitForDashboard } from './support/stack';

describe('the print room (docs/orders.md, Production)', () => {
  const browser = suiteBrowser();

  it('an admin downloads the day’s print files, starts production and ships by tracking CSV', async () => {
    const email = `production-${Date.now().toString(36)}@example.com`;
    const shop = await openPage(browser(), undefined, STORE_URL);
    const number = await buy(shop.page, email, 'Paula Print');
    expect(number).not.toBe('');
    await shop.context.close();
    const orderId = String(orderIdOf(email, number));

    // The renderer makes the order's print files; a designer's approval (design-review.e2e.ts does it in the
    // browser) is set here, which puts the item in the print room's queue.
    const deadline = Date.now() + 90_000;
    const files = () => sql(`SELECT count(*) FILTER (WHERE print_status = 'done') || '/' || count(*) FROM design_order_items di
      JOIN order_items i ON i.id = di.order_item_id WHERE i.order_id = :'a1';`, orderId);
    while (!/^(\d+)\/\1$/.test(files()) || files() === '0/0') {
      if (Date.now() > deadline) throw new Error(`print files of order ${number}: ${files()} done`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    sql(`UPDATE design_order_items SET status = 'approved' WHERE order_item_id IN (SELECT id FROM order_items WHERE order_id = :'a1');`, orderId);

    const { page } = await openPage(browser());
    await page.goto('/auth/login?designer=1');
    await submitLogin(page, DEMO_ADMIN, DEMO_PASSWORD);
    await waitForDashboard(page, DEMO_ADMIN);
    await page.getByRole('link', { name: 'Production' }).first().click();
    await page.getByRole('heading', { name: 'Production' }).waitFor();
    const row = page.getByTestId('production-item').filter({ hasText: `#${number}` });
    await row.waitFor();
    await screenshot(page, 'production-queue');

    // The day's batch: a zip with the order's print files in its folder and the manifest.
    await page.getByLabel('Day of the orders').fill(new Date().toISOString().slice(0, 10));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download print files' }).click();
    const dir = await mkdtemp(join(tmpdir(), 'pressroom-batch-'));
    try {
      const zip = join(dir, 'batch.zip');
      await (await download).saveAs(zip);
      const listing = execFileSync('unzip', ['-Z1', zip]).toString();
      expect(listing).toContain('manifest.csv');
      expect(listing).toMatch(new RegExp(`^${number}-${orderId}/\\d+-\\w+\\.png$`, 'm'));
      const manifest = execFileSync('unzip', ['-p', zip, 'manifest.csv']).toString();
      expect(manifest.split('\n').filter((l) => l.includes(`${number}-${orderId}/`)).every((l) => l.endsWith(',ok'))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    await row.getByRole('button', { name: 'Start production' }).click();
    await row.getByText('In production').waitFor();

    // Shipping by CSV: the line for this order ships it, a line for an unknown order says why.
    const csv = `order_number,carrier,tracking_number,tracking_url\n#${orderId},DHL,JJD${orderId},https://dhl.example/JJD${orderId}\n99999999,DHL,X1\n`;
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload tracking CSV' }).click();
    await (await chooser).setFiles({ name: 'tracking.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('tracking-summary').filter({ hasText: '1 of 2 lines shipped.' }).waitFor();
    await page.getByTestId('tracking-line').filter({ hasText: 'No open order has this number.' }).waitFor();
    await expect.poll(() => row.count()).toBe(0);
    await screenshot(page, 'production-shipped');
    expect(sql(`SELECT status FROM orders WHERE id = :'a1';`, orderId)).toBe('completed');

    const seller = await apiLogin(DEMO_SELLER);
    expect((await api('PUT', '/seller/notifications', seller, { mark_all_as_read: true })).status).toBe(200);
  }, 180_000);
});
