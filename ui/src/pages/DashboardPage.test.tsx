import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Overview } from '../api/reports';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { DashboardPage } from './DashboardPage';

const page = { '/': <DashboardPage /> };

const usd = (amount: number) => ({ amount, currency: 'USD' });

const report: Overview = {
  period: { from: '2026-04-01T00:00:00+02:00', to: '2026-04-08T00:00:00+02:00' },
  previous: { from: '2026-03-25T00:00:00+02:00', to: '2026-04-01T00:00:00+02:00' },
  currency: 'USD',
  currencies: ['USD'],
  figures: {
    sales: { value: usd(11250), previous: usd(10000) },
    orders: { value: 97, previous: 100 },
    items: { value: 3, previous: 0 },
    average_order_value: { value: usd(116), previous: usd(100) },
    earnings: { value: usd(4000), previous: usd(4000) },
    visits: { value: 12, previous: 0 },
  },
  days: [
    { key: '2026-04-06', label: '2026-04-06', orders: 0, sales: 0 },
    { key: '2026-04-07', label: '2026-04-07', orders: 2, sales: 11250 },
  ],
  countries: [{ key: 'DE', label: 'Germany', orders: 2, sales: 11250 }],
  stores: [{ key: '1', label: "Sam's Print Shop", orders: 2, sales: 11250 }],
  devices: [
    { key: 'mobile', label: 'Mobile', orders: 1, sales: 5000, visits: 9 },
    { key: 'desktop', label: 'Desktop', orders: 1, sales: 6250, visits: 3 },
  ],
  payment_methods: [{ key: 'test', label: 'Test mode', orders: 2, sales: 11250 }],
  top_campaigns: [{ id: 5, name: 'Cats', orders: 2, items: 3, sales: 9000 }],
};

function answer(url: URL) {
  if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([{ id: 1, name: "Sam's Print Shop" }]));
  if (url.pathname === '/api/seller/reports/overview') return Promise.resolve(ok(report));
  return Promise.resolve(json({ success: false, message: 'not here', data: null, errors: [] }, 404));
}

const SLOW = { timeout: 15_000 };

afterEach(() => vi.unstubAllGlobals());

describe('Dashboard overview', () => {
  it('shows each figure with its change against the previous period', async () => {
    showPages('/', page, answer);
    const card = async (what: string) => {
      const c = await screen.findByTestId(`figure-${what}`, {}, SLOW);
      return [within(c).getByTestId('figure-value').textContent, within(c).getByTestId('figure-change').textContent];
    };
    expect(await card('sales')).toEqual(['USD 112.50', '+12.5%']);
    expect(await card('orders')).toEqual(['97', '\u22123.0%']);
    expect(await card('items')).toEqual(['3', 'no previous items']);
    expect(await card('average order value')).toEqual(['USD 1.16', '+16.0%']);
    expect(await card('earnings')).toEqual(['USD 40.00', 'no change']);
    expect(await card('visits')).toEqual(['12', 'no previous visits']);
    expect(within(screen.getByTestId('chart-Sales by country')).getByText('Germany')).toBeInTheDocument();
    expect(within(screen.getByTestId('chart-Sales by payment method')).getByText('Test mode')).toBeInTheDocument();
    const mobile = within(screen.getByTestId('devices')).getByText('Mobile').closest('tr');
    expect(mobile).toHaveTextContent('Mobile91USD 50.00');
    expect(within(screen.getByTestId('top-campaigns')).getByText('Cats')).toBeInTheDocument();
  });

  it('asks for the last 30 days first, then the range chosen', async () => {
    const calls = showPages('/', page, answer);
    await screen.findByTestId('figure-sales', {}, SLOW);
    const asked = () => calls.filter((c) => c.url.pathname === '/api/seller/reports/overview').at(-1)?.url.searchParams;
    expect(asked()?.get('date_range')).toBe('last_30_days');
    await userEvent.click(screen.getByRole('combobox', { name: 'Date' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Last week' }));
    await waitFor(() => expect(asked()?.get('date_range')).toBe('last_week'));
  });

  it('is not shown to a team member without get_reports', async () => {
    const calls = showPages('/', page, answer, makeUser({ access_user: true, roles: ['staff'], permissions: ['get_orders'] }));
    await screen.findByTestId('greeting', {}, SLOW);
    expect(screen.queryByTestId('overview')).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/seller/reports/overview')).toBe(false);
  });
});
