import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import { buy, orderIdOf, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

describe('invoices (docs/invoices.md)', () => {
  const browser = suiteBrowser();

  it('a paid order has its numbered invoice, shown as it prints, and its PDF printed by the renderer downloads', async () => {
    const email = `invoice-${Date.now().toString(36)}@example.com`;
    const shop = await openPage(browser(), undefined, STORE_URL);
    const number = await buy(shop.page, email, 'Ida Invoice');
    await shop.context.close();

    const token = await apiLogin(DEMO_SELLER);
    const id = orderIdOf(email, number);

    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto(`/orders/detail/${id}`);
    await page.getByRole('heading', { name: `Order #${number}` }).waitFor();
    await page.getByRole('link', { name: 'Invoice' }).click();
    const heading = page.getByRole('heading', { name: /^Invoice INV-\d{6}$/ });
    await heading.waitFor();
    const invoiceNumber = (await heading.innerText()).replace('Invoice ', '');
    const sheet = page.getByRole('article', { name: `Invoice ${invoiceNumber}` });
    await sheet.getByText('Ida Invoice', { exact: true }).waitFor();
    await sheet.getByText(`#${number}`).waitFor();
    await sheet.getByText('Total paid').waitFor();

    // The renderer prints the PDF; the page enables the download once it is stored.
    const download = page.getByRole('button', { name: 'Download PDF' });
    await expect.poll(() => download.isEnabled(), { timeout: 45_000, interval: 500 }).toBe(true);
    await screenshot(page, 'invoice-page');
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe(`invoice-${invoiceNumber}-order-${number}.pdf`);
    const text = execFileSync('pdftotext', ['-layout', await file.path(), '-']).toString();
    const words = text.split(/\s+/).join(' ');
    expect(words).toContain(invoiceNumber);
    expect(words).toContain('Ida Invoice');
    expect(words).toContain(`#${number}`);
    expect(words).toMatch(/Total paid \S+ ?[\d.,]+/);
    await context.close();

    // The paid order told the seller; reading it keeps the popup away from later sessions.
    expect((await api('PUT', '/seller/notifications', token, { mark_all_as_read: true })).status).toBe(200);
  });
});
