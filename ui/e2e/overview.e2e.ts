import { describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import { buy, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

interface Money {
  amount: number;
  currency: string;
}

interface Figures {
  sales: { value: Money };
  orders: { value: number };
  visits: { value: number };
}

async function today(token: string): Promise<{ figures: Figures; currency: string }> {
  const answer = await api<{ figures: Figures; currency: string }>('GET', '/seller/reports/overview?date_range=today', token);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe('overview (docs/overview.md)', () => {
  const browser = suiteBrowser();

  it('a purchase in the shop moves the seller’s figures of today: orders, sales and store visits', async () => {
    const seller = await apiLogin(DEMO_SELLER);
    const before = await today(seller);

    const shop = await openPage(browser(), undefined, STORE_URL);
    await buy(shop.page, `olive-${Date.now().toString(36)}@example.com`, 'Olive Overview');
    await shop.context.close();
    expect((await api('PUT', '/seller/notifications', seller, { mark_all_as_read: true })).status).toBe(200);

    // The storefront writes the visits it counted every few seconds (PRESSROOM_STOREFRONT_KEYWORD_FLUSH).
    let after = await today(seller);
    for (let i = 0; i < 60 && after.figures.visits.value <= before.figures.visits.value; i++) {
      await new Promise((r) => setTimeout(r, 500));
      after = await today(seller);
    }
    expect(after.figures.orders.value).toBe(before.figures.orders.value + 1);
    expect(after.figures.sales.value.amount).toBeGreaterThan(before.figures.sales.value.amount);
    // The home page and the product page at least.
    expect(after.figures.visits.value).toBeGreaterThanOrEqual(before.figures.visits.value + 2);

    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/');
    const overview = page.getByTestId('overview');
    await overview.waitFor();
    const todayAsked = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/seller/reports/overview' && new URL(r.url()).searchParams.get('date_range') === 'today',
    );
    await overview.getByRole('combobox', { name: 'Date' }).click();
    await page.getByRole('option', { name: 'Today' }).click();
    await todayAsked;
    const value = (what: string) => overview.getByTestId(`figure-${what}`).getByTestId('figure-value');
    await expect.poll(() => value('orders').innerText()).toBe(after.figures.orders.value.toLocaleString('en-US'));
    const digits = (text: string) => text.replace(/[^\d]/g, '');
    expect(digits(await value('sales').innerText())).toBe(String(after.figures.sales.value.amount));
    await overview.getByTestId('devices').getByText('Desktop').waitFor();
    await overview.getByTestId('top-campaign').first().waitFor();
    await screenshot(page, 'overview');

    // Pricing Analytics lists the shirt bought with what it left after its costs.
    await page.goto('/pricing/analytics');
    await page.getByRole('heading', { name: 'Pricing Analytics' }).waitFor();
    await page.getByTestId('margin').first().waitFor();
    expect(await page.getByTestId('margin').first().innerText()).toMatch(/T-shirt/);
    await screenshot(page, 'pricing-analytics');
    await context.close();
  });
});
