import { describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN } from './support/accounts';
import { buy, STORE_URL } from './support/shop';
import { BASE_URL, DEMO_PASSWORD, DEMO_SELLER, openPage, screenshot, signIn, submitLogin, suiteBrowser, waitForDashboard } from './support/stack';

describe('billing and payouts (docs/money.md)', () => {
  const browser = suiteBrowser();

  it('shows a storefront sale held, then available, and pays it out through the admins', async () => {
    const shop = await openPage(browser(), undefined, STORE_URL);
    const number = await buy(shop.page, 'payout-buyer@example.com', 'Pat Payout');
    expect(number).not.toBe('');
    await shop.context.close();

    // The seller sees the sale held until the order ships.
    const seller = await openPage(browser());
    await signIn(seller.page, DEMO_SELLER);
    await seller.page.goto('/payouts');
    await seller.page.getByRole('heading', { name: 'Billing & Payouts' }).waitFor();
    const sale = seller.page.getByTestId('transaction').filter({ hasText: `Order ${number}: sale` });
    await sale.waitFor();
    expect(await sale.innerText()).toContain('held until the order ships');
    expect(await seller.page.getByText('Coming soon').count()).toBe(0);
    await screenshot(seller.page, 'payouts-held-sale');

    // An admin makes the order's earnings available and adds a bonus, each with its entry.
    const token = await apiLogin(DEMO_SELLER);
    const orders = await api<{ id: number; number: string }[]>('GET', `/seller/orders?q=${number}`, token);
    const orderId = orders.body.data.find((o) => o.number === number)?.id;
    expect(orderId).toBeDefined();
    const admin = await openPage(browser());
    await admin.page.goto('/auth/login?designer=1');
    await submitLogin(admin.page, DEMO_ADMIN, DEMO_PASSWORD);
    await waitForDashboard(admin.page, DEMO_ADMIN);
    await admin.page.goto('/system/payouts');
    await admin.page.getByLabel('Order id').fill(String(orderId));
    await admin.page.getByRole('button', { name: 'Make earnings available' }).click();
    await admin.page.getByText("The order's earnings are available.").waitFor();
    await admin.page.getByLabel('Seller e-mail').fill(DEMO_SELLER);
    await admin.page.getByLabel('Amount').fill('60.00');
    await admin.page.getByLabel('Reason').fill('Launch bonus');
    await admin.page.getByRole('button', { name: 'Adjust balance' }).click();
    await admin.page.getByText(`The balance of ${DEMO_SELLER} was adjusted.`).waitFor();

    // The seller asks for a payout; a second one is not offered while it is open.
    await seller.page.reload();
    await seller.page.getByTestId('transaction').filter({ hasText: `Order ${number} shipped` }).waitFor();
    await seller.page.getByTestId('transaction').filter({ hasText: 'Launch bonus' }).waitFor();
    await seller.page.getByLabel('Amount').fill('50.005');
    await seller.page.getByRole('button', { name: 'Request payout' }).click();
    await seller.page.getByText(/at most 2 decimals/).waitFor();
    await screenshot(seller.page, 'payouts-bad-amount');
    await seller.page.getByLabel('Amount').fill('50.00');
    await seller.page.getByRole('button', { name: 'Request payout' }).click();
    await seller.page.getByTestId('open-payout').waitFor();
    const payoutText = await seller.page.getByTestId('open-payout').innerText();
    const payoutId = /#(\d+)/.exec(payoutText)?.[1];
    expect(payoutText.toLowerCase()).toContain('pending');
    expect(await seller.page.getByRole('button', { name: 'Request payout' }).count()).toBe(0);
    await screenshot(seller.page, 'payouts-requested');

    // The admin approves and completes it with the payment's reference.
    await admin.page.reload();
    const row = admin.page.getByTestId('admin-payout').filter({ hasText: `#${payoutId}` });
    await row.getByRole('button', { name: 'Approve' }).click();
    await admin.page.getByRole('combobox', { name: 'Status' }).click();
    await admin.page.getByRole('option', { name: 'Processing' }).click();
    await row.getByRole('button', { name: 'Complete' }).click();
    await admin.page.getByRole('dialog').getByLabel('Reference').fill('WIRE-2026-001');
    await screenshot(admin.page, 'payouts-admin-complete');
    await admin.page.getByRole('dialog').getByRole('button', { name: 'Complete payout' }).click();
    await admin.page.getByText(`Payout #${payoutId} is completed.`).waitFor();
    await admin.context.close();

    // The seller sees the payout paid, each step in the transactions and the export.
    await seller.page.reload();
    const paid = seller.page.getByTestId('payout').filter({ hasText: `#${payoutId}` });
    await paid.getByText('Completed').waitFor();
    expect(await paid.innerText()).toContain('WIRE-2026-001');
    await seller.page.getByTestId('transaction').filter({ hasText: `Payout #${payoutId} of` }).first().waitFor();
    await seller.page.getByRole('combobox', { name: 'Type' }).click();
    await seller.page.getByRole('option', { name: 'Payout' }).click();
    await seller.page.getByTestId('transaction').filter({ hasText: 'paid (reference WIRE-2026-001)' }).waitFor();
    await screenshot(seller.page, 'payouts-completed');
    const [download] = await Promise.all([
      seller.page.waitForEvent('download'),
      seller.page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^billing-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await fetch(`${BASE_URL}/api/seller/billing/transactions/export.csv?type=payout`, {
      headers: { Authorization: `Bearer ${token}` },
    }).then((r) => r.text());
    expect(csv).toContain('WIRE-2026-001');
    await seller.context.close();

    // The payout notifications are read, so their popup stays away from later sessions.
    expect((await api('PUT', '/seller/notifications', token, { mark_all_as_read: true })).status).toBe(200);
  });
});
