import { describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import { openDemoShirt, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

describe('customers (docs/customers.md)', () => {
  const browser = suiteBrowser();

  it('a buyer who pays in the shop is one of the seller’s customers, with the order on their page', async () => {
    const email = `casey-${Date.now().toString(36)}@example.com`;
    const shop = await openPage(browser(), undefined, STORE_URL);
    const buyer = shop.page;
    await openDemoShirt(buyer);
    await buyer.getByRole('button', { name: 'Add to cart' }).click();
    await buyer.getByRole('heading', { name: 'Your cart' }).waitFor();
    await buyer.getByRole('button', { name: 'Check out' }).click();
    await buyer.getByLabel('E-mail').fill(email);
    await buyer.getByLabel('Full name').fill('Casey Customer');
    await buyer.getByLabel('Address', { exact: true }).fill('1 Unter den Linden');
    await buyer.getByLabel('City').fill('Berlin');
    await buyer.getByLabel('Country').selectOption('DE');
    await buyer.getByLabel('Postal code').fill('10117');
    await buyer.getByRole('button', { name: 'Continue to payment' }).click();
    await buyer.getByRole('heading', { name: 'Review and pay' }).waitFor();
    const total = (await buyer.locator('#total').innerText()).trim();
    await buyer.getByRole('button', { name: /^Pay / }).click();
    const thanks = buyer.getByRole('heading', { name: /Thank you! Order \d+ is confirmed\./ });
    await thanks.waitFor();
    const number = /Order (\d+)/.exec(await thanks.innerText())?.[1];
    await shop.context.close();
    // The seller is told of the order; reading it first keeps its popup off the screens below and later sessions.
    const seller = await apiLogin(DEMO_SELLER);
    expect((await api('PUT', '/seller/notifications', seller, { mark_all_as_read: true })).status).toBe(200);

    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/customers');
    await page.getByRole('heading', { name: 'Customers' }).waitFor();
    // The search narrows the list to the one buyer (read once its answer is in: the table reloads meanwhile).
    const prefix = email.slice(0, 12);
    const searched = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/seller/customers' && new URL(r.url()).searchParams.get('q') === prefix);
    await page.getByLabel('Search customers').fill(prefix);
    await searched;
    const row = page.getByTestId('customer').filter({ hasText: email });
    await row.waitFor();
    await page.getByText('1 customer', { exact: true }).waitFor();
    expect(await page.getByTestId('customer').count()).toBe(1);
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[0]).toContain('Casey Customer');
    expect(cells[1]).toBe('Germany');
    expect(cells[2]).toBe('1');
    // The shop writes $26.97, the dashboard USD 26.97: the same amount.
    const digits = (text = '') => text.replace(/[^\d.]/g, '');
    expect(digits(cells[3])).toBe(digits(total));
    await screenshot(page, 'customers-list');

    await row.getByRole('link', { name: 'Casey Customer' }).click();
    await page.getByRole('heading', { name: 'Casey Customer' }).waitFor();
    const order = page.getByTestId('customer-order');
    expect(await order.count()).toBe(1);
    expect(await order.innerText()).toContain(`#${number}`);
    await screenshot(page, 'customers-detail');
    await order.getByRole('link', { name: `#${number}` }).click();
    await page.getByText(`Order #${number}`).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/orders\/detail\/\d+$/);

    await page.goto('/abandoned-orders');
    await page.getByRole('heading', { name: 'Abandoned Checkouts' }).waitFor();
    await page.getByText(/abandoned checkout/).waitFor();
    await screenshot(page, 'abandoned-orders');

    await page.goto('/cross-selling');
    await page.getByRole('heading', { name: 'Cross-Selling' }).waitFor();
    await page.getByRole('button', { name: 'New rule' }).click();
    await page.getByRole('dialog').getByText('Buyers of this campaign').waitFor();
    await screenshot(page, 'cross-selling-new');
    await context.close();
  });
});
