import { afterAll, describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN } from './support/accounts';
import { openDemoShirt, sql, STORE_URL } from './support/shop';
import { DEMO_PASSWORD, DEMO_SELLER, openPage, screenshot, signIn, submitLogin, suiteBrowser, waitForDashboard } from './support/stack';

const SIZE = 'XL';

describe('stock status (docs/stock.md)', () => {
  const browser = suiteBrowser();
  // What the test marked out of stock, put back afterwards: the other files buy from the demo shop.
  let restore: { template_id: number; color: string; size: string } | undefined;
  afterAll(async () => {
    if (!restore) return;
    const admin = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
    const r = await api('PUT', '/admin/stock-status', admin, { changes: [{ ...restore, in_stock: true }] });
    expect(r.status).toBe(200);
  });

  it('an admin marks a size out of stock, the seller sees the campaign touched, and the storefront stops selling it', async () => {
    // The demo shop's T-shirt, in the colour its page opens with.
    const shop = await openPage(browser(), undefined, STORE_URL);
    await openDemoShirt(shop.page);
    await shop.page.getByRole('button', { name: 'Add to cart' }).waitFor();
    const campaign = (await shop.page.getByRole('heading', { level: 1 }).innerText()).trim();
    const productId = await shop.page.locator('input[name=product_id]').inputValue();
    const color = await shop.page.locator('input[name=color]:checked').inputValue();
    const [templateId, template] = sql(`SELECT t.id || '|' || t.name FROM campaign_products p JOIN product_templates t ON t.id = p.template_id
      WHERE p.id = :'a1';`, productId).split('|');
    expect(await shop.page.locator(`#size option[value="${SIZE}"]`).isDisabled()).toBe(false);

    // The admin picks the size in that colour and marks it out of stock.
    const { page } = await openPage(browser());
    await page.goto('/auth/login?designer=1');
    await submitLogin(page, DEMO_ADMIN, DEMO_PASSWORD);
    await waitForDashboard(page, DEMO_ADMIN);
    await page.getByRole('link', { name: 'Stock status' }).first().click();
    await page.getByRole('heading', { name: 'Stock status', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Product' }).click();
    await page.getByRole('option', { name: template, exact: true }).click();
    await page.getByRole('checkbox', { name: `${template}, ${color}, ${SIZE}` }).check();
    await screenshot(page, 'stock-status-admin-picked');
    restore = { template_id: Number(templateId), color, size: SIZE };
    await page.getByRole('button', { name: 'Mark out of stock' }).click();
    await page.getByText('The stock status was saved.').waitFor();
    const cell = page.locator(`[data-variant="${template} ${color} ${SIZE}"]`);
    await cell.getByText('Out of stock').waitFor();
    const change = page.getByTestId('stock-change').first();
    expect(await change.innerText()).toContain(`${color} · ${SIZE}`);
    expect(await change.innerText()).toContain('Out of stock');
    await screenshot(page, 'stock-status-admin');

    // The seller reads the same table, without controls, and the campaign touched.
    const seller = await openPage(browser());
    await signIn(seller.page, DEMO_SELLER);
    await seller.page.goto('/product/stock-status');
    await seller.page.getByRole('heading', { name: 'Stock status', level: 1 }).waitFor();
    const touched = seller.page.getByTestId('touched-campaign').filter({ hasText: campaign });
    await touched.first().waitFor();
    expect(await touched.first().innerText()).toContain(`${color} · ${SIZE}`);
    expect(await seller.page.getByRole('checkbox').count()).toBe(0);
    await seller.page.getByRole('switch', { name: 'Out of stock only' }).check({ force: true });
    await seller.page.locator(`[data-variant="${template} ${color} ${SIZE}"]`).getByText('Out of stock').waitFor();
    await screenshot(seller.page, 'stock-status-seller');

    // The storefront: the size is disabled once the server's page cache (5 s) has passed, and adding it is refused.
    // The page says it may be kept for a minute, so the buyer reloads, as a browser holding it would have to.
    const deadline = Date.now() + 30_000;
    for (;;) {
      await shop.page.reload();
      if (await shop.page.locator(`#size option[value="${SIZE}"]`).isDisabled()) break;
      if (Date.now() > deadline) throw new Error('the storefront still sells the size');
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(await shop.page.locator('[data-out-of-stock]').innerText()).toContain(`${color} in ${SIZE}`);
    await screenshot(shop.page, 'stock-status-storefront');
    const refused = await shop.page.request.post(`${STORE_URL}/s/demo/api/cart/items`, {
      data: { product_id: Number(productId), color, size: SIZE, quantity: 1 },
    });
    expect(refused.status()).toBe(422);
    const body = (await refused.json()) as { errors: { field: string; message: string }[] };
    expect(body.errors[0]).toEqual({ field: 'size', message: `${color} in size ${SIZE} is out of stock: choose another colour or size.` });
    await shop.context.close();
    await seller.context.close();
  });
});
