import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN, outboxLink } from './support/accounts';
import { sql, STORE_URL } from './support/shop';
import { BASE_URL, DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

// A seller's own Stripe keys as stripe-mock (which scripts/test runs for the stack's Stripe API) takes them.
const SECRET_KEY = 'sk_test_e2esellerown4242';
const PUBLISHABLE_KEY = 'pk_test_e2esellerown4242';
const WEBHOOK_SECRET = 'whsec_e2e_seller_own_secret';

/** The Stripe-Signature header Stripe sends with payload, signed with secret. */
function stripeSignature(payload: string, secret: string): string {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
}

describe('payment gateways and payment accounts (docs/payments.md)', () => {
  const browser = suiteBrowser();
  // Payment gateways are for accounts with custom payment: the demo seller is one for this file, and its demo store
  // goes back to the platform's gateway afterwards.
  sql(`UPDATE users SET custom_payment = true WHERE email = :'a1';`, DEMO_SELLER);
  afterAll(() => {
    sql(`UPDATE stores SET payment_gateway_id = NULL WHERE payment_gateway_id IS NOT NULL;`);
    sql(`UPDATE users SET custom_payment = false WHERE email = :'a1';`, DEMO_SELLER);
    sql(`DELETE FROM payment_accounts WHERE label LIKE 'Payoneer%';`);
  });

  it('connects the seller own Stripe account, takes a buyer payment into it, refunds it through it and deletes it', async () => {
    const seller = await openPage(browser());
    await signIn(seller.page, DEMO_SELLER);
    await seller.page.goto('/settings/payment-gateways');
    await seller.page.getByRole('heading', { name: 'Payment Gateways' }).waitFor();
    expect(await seller.page.getByText('Coming soon').count()).toBe(0);
    await seller.page.getByRole('link', { name: 'Connect Stripe' }).click();

    // The webhook address is shown before anything is saved, so it can be set up in Stripe first.
    const sellerId = sql(`SELECT id FROM users WHERE email = :'a1';`, DEMO_SELLER);
    await seller.page.getByText(`${STORE_URL}/webhooks/stripe/seller/${sellerId}`).waitFor();
    await seller.page.getByLabel(/^Name/).fill('Sam Stripe');
    await seller.page.getByLabel(/^Secret key/).fill('sk_test_not_a_key_of_anyone');
    await seller.page.getByLabel(/^Publishable key/).fill(PUBLISHABLE_KEY);
    await seller.page.getByLabel(/^Webhook signing secret/).fill(WEBHOOK_SECRET);
    await seller.page.getByPlaceholder('Choose stores').click();
    await seller.page.getByRole('option', { name: "Sam's Print Shop" }).click();
    await seller.page.keyboard.press('Escape');
    await seller.page.getByRole('button', { name: 'Connect' }).click();
    await seller.page.getByText('Stripe refused the secret key: it is not a valid API key of any Stripe account.').waitFor();
    await screenshot(seller.page, 'payment-gateway-refused');
    expect(sql(`SELECT count(*) FROM payment_gateways;`)).toBe('0');

    await seller.page.getByLabel(/^Secret key/).fill(SECRET_KEY);
    await seller.page.getByRole('button', { name: 'Connect' }).click();
    await seller.page.getByRole('heading', { name: 'Sam Stripe' }).waitFor();
    await seller.page.getByText('Test mode').first().waitFor();
    await screenshot(seller.page, 'payment-gateway-connected');
    await seller.page.goto('/settings/payment-gateways');
    const row = seller.page.getByTestId('payment-gateway').filter({ hasText: 'Sam Stripe' });
    await row.getByText('sk_test_••••••••4242').waitFor();
    expect(await row.innerText()).toContain("Sam's Print Shop");
    expect(await seller.page.content()).not.toContain(SECRET_KEY);
    await screenshot(seller.page, 'payment-gateways');

    // A buyer of the demo store pays with the Payment Element of the seller's account (Stripe.js itself is not reached
    // from the test machine); Stripe then reports the payment to the seller's webhook address.
    const email = `gateway-${Date.now().toString(36)}@example.com`;
    const shop = await openPage(browser(), undefined, STORE_URL);
    await shop.page.route('https://js.stripe.com/**', (route) => route.abort());
    await shop.page.goto('/s/demo/');
    await shop.page.locator('a.card').first().click();
    await shop.page.getByRole('button', { name: 'Add to cart' }).click();
    await shop.page.getByRole('button', { name: 'Check out' }).click();
    await shop.page.getByLabel('E-mail').fill(email);
    await shop.page.getByLabel('Full name').fill('Gus Gateway');
    await shop.page.getByLabel('Address', { exact: true }).fill('1 Market St');
    await shop.page.getByLabel('City').fill('Berlin');
    await shop.page.getByLabel('Country').selectOption('DE');
    await shop.page.getByLabel('Postal code').fill('10115');
    await shop.page.getByRole('button', { name: 'Continue to payment' }).click();
    await shop.page.getByRole('heading', { name: 'Review and pay' }).waitFor();
    expect(await shop.page.locator('#payment-form').getAttribute('data-key')).toBe(PUBLISHABLE_KEY);
    const [intent, amount, checkout] = sql(
      `SELECT p.intent_id || '|' || p.amount || '|' || p.checkout_id FROM payments p JOIN checkouts k ON k.id = p.checkout_id
       JOIN payment_gateways g ON g.id = p.payment_gateway_id WHERE k.email = :'a1' AND g.name = 'Sam Stripe';`,
      email,
    ).split('|');
    expect(intent).toMatch(/^pi_/);

    const payload = JSON.stringify({
      id: `evt_e2e_${Date.now()}`,
      object: 'event',
      api_version: '2025-01-27.acacia',
      type: 'payment_intent.succeeded',
      data: { object: { id: intent, object: 'payment_intent', amount: Number(amount), currency: 'usd', status: 'succeeded' } },
    });
    const hook = `${STORE_URL}/webhooks/stripe/seller/${sellerId}`;
    const forged = await fetch(hook, { method: 'POST', body: payload, headers: { 'Stripe-Signature': stripeSignature(payload, 'whsec_someone_else') } });
    expect(forged.status).toBe(400);
    const delivered = await fetch(hook, { method: 'POST', body: payload, headers: { 'Stripe-Signature': stripeSignature(payload, WEBHOOK_SECRET) } });
    expect(delivered.status).toBe(200);
    // Stripe sends the buyer back: the order the webhook made is confirmed.
    await shop.page.goto(`/s/demo/checkout/${checkout}/return?payment_intent=${intent}`);
    const thanks = shop.page.getByRole('heading', { name: /Thank you! Order \d+ is confirmed\./ });
    await thanks.waitFor();
    const number = /Order (\d+)/.exec(await thanks.innerText())?.[1] ?? '';
    await shop.context.close();

    // The seller's order names the gateway; their balance owes the order's costs instead of earning it.
    const orderId = sql(`SELECT id FROM orders WHERE email = :'a1' AND number = :'a2';`, email, number);
    await seller.page.goto(`/orders/detail/${orderId}`);
    await seller.page.getByText('via your payment gateway “Sam Stripe”').waitFor();
    await screenshot(seller.page, 'payment-gateway-order');
    await seller.page.goto('/payouts');
    await seller.page.getByTestId('transaction').filter({ hasText: `Order ${number} paid` }).getByText('Fulfillment').waitFor();

    // The refund goes back through the seller's own account.
    const token = await apiLogin(DEMO_SELLER);
    const refund = await fetch(`${BASE_URL}/api/seller/orders/${orderId}/actions/refund`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': `e2e-${orderId}` },
      body: JSON.stringify({ amount: Number(amount), reason: 'Changed my mind' }),
    });
    expect(refund.status).toBe(200);
    expect(sql(`SELECT r.gateway_refund_id LIKE 're_%' FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE p.order_id = :'a1';`, orderId)).toBe('t');

    // Deleting the gateway says what becomes of its store, and the store pays through Pressroom again.
    await seller.page.goto('/settings/payment-gateways');
    await seller.page.getByTestId('payment-gateway').filter({ hasText: 'Sam Stripe' }).getByRole('button', { name: 'Delete' }).click();
    const dialog = seller.page.getByRole('dialog');
    await dialog.getByText("Sam's Print Shop will take payments through Pressroom again.", { exact: false }).waitFor();
    await screenshot(seller.page, 'payment-gateway-delete');
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    await seller.page.getByText(/The payment gateway was deleted/).first().waitFor();
    expect(sql(`SELECT count(*) FROM stores WHERE payment_gateway_id IS NOT NULL;`)).toBe('0');
    await seller.context.close();
    // The paid order told the seller; reading it keeps the popup away from later sessions.
    expect((await api('PUT', '/seller/notifications', token, { mark_all_as_read: true })).status).toBe(200);
  });

  it('adds a payment account, confirmed through the link mailed to the seller, and offers it for payouts', async () => {
    const admin = await apiLogin(DEMO_ADMIN, undefined, 'admin');
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/settings/payment-account');
    await page.getByRole('heading', { name: 'Payment Accounts' }).waitFor();
    expect(await page.getByText('Coming soon').count()).toBe(0);
    const demo = page.getByTestId('payment-account').filter({ hasText: 'First Demo Bank' });
    await demo.getByText('Default').waitFor();

    await page.getByRole('button', { name: 'Add account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Payout method' }).click();
    await page.getByRole('option', { name: 'Payoneer', exact: true }).click();
    await dialog.getByLabel(/^Account holder/).fill('Sam Seller');
    await dialog.getByLabel(/^Payoneer account e-mail/).fill('sam at example');
    await dialog.getByRole('button', { name: 'Add account' }).click();
    await dialog.getByText('Enter one e-mail address, such as name@example.com.').waitFor();
    await screenshot(page, 'payment-account-refused');
    await dialog.getByLabel(/^Payoneer account e-mail/).fill('sam.payouts@example.com');
    await dialog.getByRole('button', { name: 'Add account' }).click();
    const added = page.getByTestId('payment-account').filter({ hasText: 'Payoneer' });
    await added.getByText('Waiting for confirmation').waitFor();
    expect(await added.innerText()).toContain('s•••@example.com');
    await screenshot(page, 'payment-account-waiting');

    // The link in the seller's mail (the outbox on this stack) confirms it.
    await page.goto(await outboxLink(admin, DEMO_SELLER, '/settings/payment-account?token='));
    await page.getByTestId('confirm-result').filter({ hasText: 'The payment account is confirmed. Payouts can be sent to it.' }).waitFor();
    await added.getByText('Confirmed').waitFor();
    await screenshot(page, 'payment-account-confirmed');

    // Payouts can go to it.
    const balance = await api<{ payment_accounts: { label: string }[] }>('GET', '/seller/billing', await apiLogin(DEMO_SELLER));
    expect(balance.body.data.payment_accounts.map((a) => a.label)).toContain('Payoneer · s•••@example.com');
    await context.close();
  });
});
