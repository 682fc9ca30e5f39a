import { describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN, outbox } from './support/accounts';
import { buy, orderIdOf, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

describe('money back and parcels out (docs/orders.md)', () => {
  const browser = suiteBrowser();

  it('the seller refunds part of a paid order, adds tracking, and the buyer gets the shipping e-mail', async () => {
    // A buyer pays an order in the demo shop with the test gateway.
    const email = `refund-${Date.now().toString(36)}@example.com`;
    const shop = await openPage(browser(), undefined, STORE_URL);
    const number = await buy(shop.page, email, 'Rae Refund');
    await shop.context.close();

    const token = await apiLogin(DEMO_SELLER);
    const id = orderIdOf(email, number);

    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto(`/orders/detail/${id}`);
    await page.getByRole('heading', { name: `Order #${number}` }).waitFor();

    // Refund part of it.
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const refund = page.getByRole('dialog', { name: `Refund order #${number}` });
    await refund.getByLabel(/^Amount/).fill('5.00');
    await refund.getByLabel(/Reason/).fill('Printed a day late');
    await screenshot(page, 'orders-refund-dialog');
    await refund.getByRole('button', { name: /^Refund .*5[.,]00/ }).click();
    await refund.waitFor({ state: 'hidden' });
    await page.getByTestId('order-refund').filter({ hasText: 'Printed a day late' }).waitFor();
    await page.getByText('Partially refunded').first().waitFor();

    // Add tracking for every item.
    await page.getByRole('button', { name: 'Add tracking' }).click();
    const tracking = page.getByRole('dialog', { name: `Add tracking to order #${number}` });
    await tracking.getByLabel(/Carrier/).fill('DHL');
    await tracking.getByLabel(/Tracking number/).fill(`JD${Date.now()}`);
    await tracking.getByLabel(/Tracking link/).fill('https://www.dhl.com/track?id=JD014600006');
    await screenshot(page, 'orders-tracking-dialog');
    await tracking.getByRole('button', { name: 'Save tracking' }).click();
    await tracking.waitFor({ state: 'hidden' });
    await page.getByTestId('order-shipment').first().waitFor();
    await page.getByText('Completed').first().waitFor();
    await page.getByText('Tracking added', { exact: true }).first().waitFor();
    await screenshot(page, 'orders-refunded-and-shipped');
    await context.close();

    // The worker mails the buyer the tracking link: it is in the mail outbox, once.
    const admin = await apiLogin(DEMO_ADMIN, undefined, 'admin');
    let mails = await outbox(admin, email);
    for (let i = 0; i < 60 && !mails.data.some((m) => m.subject.includes('has shipped')); i++) {
      await new Promise((r) => setTimeout(r, 500));
      mails = await outbox(admin, email);
    }
    const shipped = mails.data.filter((m) => m.subject.includes('has shipped'));
    expect(shipped).toHaveLength(1);
    expect(shipped[0]!.body).toContain('https://www.dhl.com/track?id=JD014600006');

    // The paid order told the seller; reading it keeps the popup away from later sessions.
    expect((await api('PUT', '/seller/notifications', token, { mark_all_as_read: true })).status).toBe(200);
  });
});
