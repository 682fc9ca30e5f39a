import { afterAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import { openDemoShirt, sql, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

describe('an order whose address the country rules refuse waits until the seller fixes it (docs/orders.md)', () => {
  const browser = suiteBrowser();
  // The Invalid Address screen belongs to accounts with custom payments: the demo seller is one for this file.
  sql(`UPDATE users SET custom_payment = true WHERE email = :'a1';`, DEMO_SELLER);
  afterAll(() => sql(`UPDATE users SET custom_payment = false WHERE email = :'a1';`, DEMO_SELLER));

  it('the seller finds it under Invalid Address, edits the address, and the order goes on', async () => {
    const email = `invalid-${Date.now().toString(36)}@example.com`;
    const shop = await openPage(browser(), undefined, STORE_URL);
    await openDemoShirt(shop.page);
    await shop.page.getByRole('button', { name: 'Add to cart' }).click();
    await shop.page.getByRole('button', { name: 'Check out' }).click();
    await shop.page.getByLabel('E-mail').fill(email);
    await shop.page.getByLabel('Full name').fill('Ivy Invalid');
    await shop.page.getByLabel('Address', { exact: true }).fill('1 Market St');
    await shop.page.getByLabel('City').fill('Berlin');
    await shop.page.getByLabel('Country').selectOption('DE');
    await shop.page.getByLabel('Postal code').fill('10115');
    await shop.page.getByRole('button', { name: 'Continue to payment' }).click();
    await shop.page.getByRole('button', { name: /^Pay / }).waitFor();
    // Between the buyer's entry and the payment, the address turns into one the rules refuse (an order from another
    // system, or rules that changed): a US address without a state and with a bad postal code.
    sql(
      `UPDATE checkouts SET address = address || '{"country": "US", "state": "", "postal_code": "ABC", "city": "Austin"}' WHERE email = :'a1';`,
      email,
    );
    await shop.page.getByRole('button', { name: /^Pay / }).click();
    const thanks = shop.page.getByRole('heading', { name: /Thank you! Order \d+ is confirmed\./ });
    await thanks.waitFor();
    const number = /Order (\d+)/.exec(await thanks.innerText())?.[1] ?? '';
    await shop.context.close();

    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/invalid-address');
    await page.getByRole('heading', { name: 'Invalid Address' }).waitFor();
    const row = page.getByTestId('invalid-address-order').filter({ hasText: `#${number}` });
    await row.getByText(/Postal code: Enter a valid postal code/).waitFor();
    await screenshot(page, 'invalid-address-list');
    await row.getByRole('link', { name: 'Fix address' }).click();

    await page.getByRole('heading', { name: `Order #${number}` }).waitFor();
    await page.getByTestId('address-errors').waitFor();
    await page.getByText('Invalid address').first().waitFor();
    await page.getByRole('button', { name: 'Edit address' }).click();
    const dialog = page.getByRole('dialog', { name: `Edit the shipping address of order #${number}` });
    await dialog.getByText('Choose the state or province.').waitFor();
    await dialog.getByLabel(/State or province/).fill('US-TX');
    await dialog.getByLabel(/Postal code/).fill('78701');
    await screenshot(page, 'invalid-address-dialog');
    await dialog.getByRole('button', { name: 'Save address' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('78701 Austin').waitFor();
    await page.getByText('Shipping address changed').first().waitFor();
    expect(await page.getByTestId('address-errors').count()).toBe(0);
    await page.getByText('Unfulfilled').first().waitFor();
    await page.getByRole('button', { name: 'Add tracking' }).waitFor();
    await screenshot(page, 'invalid-address-fixed');

    await page.goto('/invalid-address');
    await page.getByRole('heading', { name: 'Invalid Address' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('invalid-address-order').filter({ hasText: `#${number}` }).count()).toBe(0);
    await context.close();

    // The invalid address and the paid order told the seller; reading them keeps the popup away from later files.
    const token = await apiLogin(DEMO_SELLER);
    expect((await api('PUT', '/seller/notifications', token, { mark_all_as_read: true })).status).toBe(200);
  });
});
