import { describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import { openDemoShirt, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

describe('promotions (docs/promotions.md)', () => {
  const browser = suiteBrowser();

  it('the seller creates a code, a buyer applies it at checkout and pays less, and the seller sees the use', async () => {
    const code = `E2E${Date.now().toString(36).toUpperCase()}`;
    const seller = await openPage(browser());
    await signIn(seller.page, DEMO_SELLER);
    await seller.page.goto('/promotions');
    await seller.page.getByRole('heading', { name: 'Promotions' }).waitFor();
    await seller.page.getByRole('button', { name: 'New promotion' }).click();
    const dialog = seller.page.getByRole('dialog');
    await dialog.getByLabel('Code', { exact: true }).fill(code);
    await dialog.getByLabel('Percent off').fill('20');
    await dialog.getByLabel('Uses per buyer').fill('1');
    await dialog.getByLabel('Minimum order').fill('10.00');
    await dialog.getByRole('combobox', { name: 'Applies to' }).click();
    await seller.page.getByRole('option', { name: 'Chosen stores' }).click();
    await dialog.getByLabel('Stores', { exact: true }).click();
    await seller.page.getByRole('option', { name: "Sam's Print Shop" }).click();
    await dialog.getByLabel('Code', { exact: true }).click(); // closes the dropdown
    await screenshot(seller.page, 'promotions-new');
    await dialog.getByRole('button', { name: 'Save promotion' }).click();
    await seller.page.getByText('The promotion was created.').waitFor();
    const row = seller.page.getByTestId('promotion').filter({ hasText: code });
    await row.waitFor();
    expect(await row.innerText()).toContain('20% off');
    await screenshot(seller.page, 'promotions-list');

    // The buyer, in the demo store.
    const buyer = await openPage(browser(), undefined, STORE_URL);
    const page = buyer.page;
    await openDemoShirt(page);
    await page.getByRole('button', { name: 'Add to cart' }).waitFor();
    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByLabel('E-mail').fill(`buyer-${code.toLowerCase()}@example.com`);
    await page.getByLabel('Full name').fill('Pat Promo');
    await page.getByLabel('Address', { exact: true }).fill('1 Market St');
    await page.getByLabel('City').fill('San Francisco');
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('or, in US:').selectOption('US-CA');
    await page.getByLabel('Postal code').fill('94103');
    await page.getByLabel('Discount code').fill('NOSUCHCODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('This discount code does not exist. Check its spelling.').waitFor();
    await screenshot(page, 'promotions-checkout-unknown');
    await page.getByLabel('or, in US:').selectOption('US-CA');
    await page.getByLabel('Discount code').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    const line = page.locator('#discount-line');
    await line.waitFor();
    expect(await line.innerText()).toContain(code); // as the seller spelt it
    const totals = await page.locator('#checkout-totals').innerText();
    const money = (label: string) => Number(new RegExp(`${label}\\s+−?\\$([\\d,.]+)`).exec(totals)?.[1]?.replace(',', ''));
    expect(money('Discount \\S+')).toBeCloseTo(money('Subtotal') * 0.2, 2);
    const total = money('Total');
    expect(total).toBeCloseTo(money('Subtotal') + money('Shipping') - money('Discount \\S+'), 2);
    await screenshot(page, 'promotions-checkout-applied');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.getByRole('heading', { name: 'Review and pay' }).waitFor();
    expect((await page.locator('#total').innerText()).trim()).toBe(`$${total.toFixed(2)}`);
    await screenshot(page, 'promotions-review');
    await page.getByRole('button', { name: /^Pay / }).click();
    const thanks = page.getByRole('heading', { name: /Thank you! Order \d+ is confirmed\./ });
    await thanks.waitFor();
    const number = /Order (\d+)/.exec(await thanks.innerText())?.[1];
    const confirmation = await page.locator('body').innerText();
    expect(confirmation).toContain('Discount');
    expect(confirmation).toContain(`$${total.toFixed(2)}`);
    await screenshot(page, 'promotions-confirmation');
    await buyer.context.close();
    // The seller reads the new-order notification, so its popup does not cover the screens below.
    const token = await apiLogin(DEMO_SELLER);
    expect((await api('PUT', '/seller/notifications', token, { mark_all_as_read: true })).status).toBe(200);

    // The seller sees the use and the revenue, the campaign on promotion and the discount on the order.
    await seller.page.goto('/promotions');
    await seller.page.getByTestId('promotion').filter({ hasText: code }).filter({ hasText: '1 use' }).waitFor();
    expect(await seller.page.getByTestId('promotion').filter({ hasText: code }).innerText()).toContain(`USD ${total.toFixed(2)}`);
    await screenshot(seller.page, 'promotions-used');
    await seller.page.goto('/on-promotion');
    await seller.page.getByTestId('on-promotion').filter({ hasText: code }).first().waitFor();
    await screenshot(seller.page, 'promotions-on-promotion');
    const orders = await api<{ id: number; number: string }[]>('GET', `/seller/orders?q=${number}`, token);
    const order = orders.body.data.find((o) => o.number === number);
    expect(order).toBeDefined();
    await seller.page.goto(`/orders/detail/${order!.id}`);
    await seller.page.getByText('Discount').first().waitFor();
    await screenshot(seller.page, 'promotions-order');
    await seller.context.close();
  });
});
