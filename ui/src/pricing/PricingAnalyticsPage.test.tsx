import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { PricingAnalyticsPage } from './PricingAnalyticsPage';

const page = { '/pricing/analytics': <PricingAnalyticsPage /> };
const usd = (amount: number) => ({ amount, currency: 'USD' });

function answer(url: URL) {
  if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([{ id: 1, name: "Sam's Print Shop" }]));
  if (url.pathname === '/api/seller/reports/margins') {
    return Promise.resolve(
      ok({
        period: { from: '', to: '' },
        currency: 'USD',
        currencies: ['USD'],
        products: [
          {
            product_id: 3,
            product: 'T-shirt',
            campaign_id: 5,
            campaign: 'Cats',
            units: 3,
            sales: usd(5997),
            base_cost: usd(2550),
            extra_print_cost: usd(0),
            fees: usd(300),
            margin: usd(3147),
          },
          {
            product_id: 4,
            product: 'Mug',
            campaign_id: 5,
            campaign: 'Cats',
            units: 1,
            sales: usd(500),
            base_cost: usd(550),
            extra_print_cost: usd(0),
            fees: usd(100),
            margin: usd(-150),
          },
        ],
      }),
    );
  }
  return Promise.resolve(json({ success: false, message: 'not here', data: null, errors: [] }, 404));
}

const SLOW = { timeout: 15_000 };

afterEach(() => vi.unstubAllGlobals());

describe('Pricing Analytics', () => {
  it('lists each product sold with its costs, margin and margin rate, over the last 30 days first', async () => {
    const calls = showPages('/pricing/analytics', page, answer);
    const [shirt, mug] = await screen.findAllByTestId('margin', {}, SLOW);
    if (!shirt || !mug) throw new Error('two rows expected');
    expect(shirt).toHaveTextContent('T-shirtCats3USD 59.97USD 25.50USD 0.00USD 3.00USD 31.4752.5%');
    expect(within(mug).getByText('USD -1.50')).toBeInTheDocument();
    expect(mug).toHaveTextContent('-30.0%');
    expect(calls.find((c) => c.url.pathname === '/api/seller/reports/margins')?.url.searchParams.get('date_range')).toBe('last_30_days');
  });

  it('tells a team member without get_reports why there is nothing, and asks nothing', async () => {
    const calls = showPages('/pricing/analytics', page, answer, makeUser({ access_user: true, roles: ['staff'], permissions: ['get_campaigns'] }));
    expect(await screen.findByText(/ask the account owner for the reports permission/, {}, SLOW)).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/seller/reports/margins')).toBe(false);
  });
});
