import { describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import { DEMO_SHIRT, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/** The same storefront by the demo store's host name: Chromium sends every *.localhost name to loopback. */
const HOST_URL = `http://demo.localhost:${new URL(STORE_URL).port || '80'}`;

describe('the demo shop (docs/storefront.md)', () => {
  const browser = suiteBrowser();

  it('sells by path: a buyer picks colour and size, checks out with the test gateway and sees the confirmation', async () => {
    const { context, page } = await openPage(browser(), undefined, STORE_URL);
    await page.goto('/s/demo/');
    await page.getByRole('heading', { name: "Sam's Print Shop" }).waitFor();
    await screenshot(page, 'storefront-home');

    await page.locator('a.card', { hasText: DEMO_SHIRT }).first().click();
    await page.getByRole('button', { name: 'Add to cart' }).waitFor();
    await page.getByTitle('Black').click();
    await page.getByLabel('Size').selectOption('L');
    await page.getByLabel('Quantity').fill('2');
    await screenshot(page, 'storefront-product');
    await page.getByRole('button', { name: 'Add to cart' }).click();

    await page.getByRole('heading', { name: 'Your cart' }).waitFor();
    const row = page.locator('tr', { hasText: 'Black' });
    expect(await row.innerText()).toContain('L');
    await screenshot(page, 'storefront-cart');
    await page.getByRole('button', { name: 'Check out' }).click();

    await page.getByText('Test mode — no money moves.').waitFor();
    await page.getByLabel('E-mail').fill('buyer@example.com');
    await page.getByLabel('Full name').fill('Jo Buyer');
    await page.getByLabel('Address', { exact: true }).fill('1 Market St');
    await page.getByLabel('City').fill('San Francisco');
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('or, in US:').selectOption('US-CA');
    await page.getByLabel('Postal code').fill('9410');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    // A four-digit US postal code is refused next to its field, with what was typed kept.
    await page.getByText('Enter a valid postal code for this country.').waitFor();
    expect(await page.getByLabel('City').inputValue()).toBe('San Francisco');
    await screenshot(page, 'storefront-checkout-error');
    await page.getByLabel('or, in US:').selectOption('US-CA');
    await page.getByLabel('Postal code').fill('94103');
    await page.getByLabel('Tip for the makers').selectOption('5');
    await page.getByRole('button', { name: 'Continue to payment' }).click();

    await page.getByRole('heading', { name: 'Review and pay' }).waitFor();
    expect(await page.getByText('Test mode — no money moves.').count()).toBe(1);
    const total = (await page.locator('#total').innerText()).trim();
    expect(total).toMatch(/^\$\d+\.\d\d$/);
    await screenshot(page, 'storefront-review');
    await page.getByRole('button', { name: /^Pay / }).click();

    const thanks = page.getByRole('heading', { name: /Thank you! Order \d+ is confirmed\./ });
    await thanks.waitFor();
    const number = /Order (\d+)/.exec(await thanks.innerText())?.[1];
    expect(await page.getByText('Test mode — no money moves.').count()).toBe(1);
    expect(await page.locator('body').innerText()).toContain(total);
    await screenshot(page, 'storefront-confirmation');
    await context.close();

    // The seller is told of the paid order; reading it keeps the popup of new notifications away from the
    // seller's later sessions in this suite.
    const seller = await apiLogin(DEMO_SELLER);
    const told = await api<{ subject: string }[]>('GET', '/seller/notifications', seller);
    expect(told.body.data.map((n) => n.subject)).toContain(`New order ${number}`);
    expect((await api('PUT', '/seller/notifications', seller, { mark_all_as_read: true })).status).toBe(200);
  });

  it('answers by host at demo.localhost', async () => {
    const { context, page } = await openPage(browser(), undefined, HOST_URL);
    await page.goto('/');
    await page.getByRole('heading', { name: "Sam's Print Shop" }).waitFor();
    expect(await page.locator('link[rel=canonical]').getAttribute('href')).toBe(`${HOST_URL}/`);
    await page.locator('a.card', { hasText: DEMO_SHIRT }).first().click();
    await page.getByRole('button', { name: 'Add to cart' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/c\/\d+$/);
    await screenshot(page, 'storefront-by-host');
    await context.close();
  });

  it('lets the seller see the store, create one with a checked address and sell a campaign in it', async () => {
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/storefronts');
    await page.getByTestId('store').filter({ hasText: "Sam's Print Shop" }).waitFor();
    await screenshot(page, 'storefronts-list');

    await page.getByRole('link', { name: 'New store' }).click();
    await page.getByLabel('Name').fill('Cat Shirts');
    await page.getByLabel('Address').fill('demo');
    await page.getByText('This address is taken; choose another.').waitFor();
    await page.getByLabel('Address').fill(`cats-${Date.now().toString(36)}`);
    await page.getByText('This address is free.').waitFor();
    await screenshot(page, 'storefronts-new');
    await page.getByRole('button', { name: 'Create store' }).click();
    await page.getByText('The store was created.').waitFor();
    await page.getByRole('heading', { name: 'Cat Shirts' }).waitFor();

    await page.goto('/campaigns');
    await page.getByRole('button', { name: 'Sell' }).first().click();
    await page.getByRole('combobox', { name: 'Store' }).click();
    await page.getByRole('option', { name: /Cat Shirts/ }).click();
    await page.getByLabel(/Margin per product/).fill('12.50');
    await screenshot(page, 'storefronts-sell');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText(/The campaign is published to Cat Shirts\./).waitFor();
    await context.close();
  });
});
