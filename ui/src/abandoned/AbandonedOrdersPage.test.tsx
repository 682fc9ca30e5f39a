import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AbandonedCheckout } from '../api/customers';
import { onePage, showPages } from '../test/pages';
import { AbandonedOrdersPage } from './AbandonedOrdersPage';

const base: AbandonedCheckout = {
  id: 'c1',
  store_id: 5,
  store_name: "Sam's Print Shop",
  email: 'alice@example.com',
  items: 2,
  lines: [{ name: 'Classic Tee', color: 'Black', size: 'M', quantity: 2 }],
  total: { amount: 4499, currency: 'USD' },
  left_at: '2026-04-15T20:00:00Z',
  abandoned_at: '2026-04-15T21:00:00Z',
  recovery_mails: [],
  opened_at: null,
  recovered_at: null,
  order_id: null,
  order_number: '',
};

const recovered: AbandonedCheckout = {
  ...base,
  id: 'c2',
  email: 'bob@example.com',
  recovery_mails: [
    { step: 1, status: 'sent', sent_at: '2026-04-15T20:30:00Z' },
    { step: 2, status: 'failed', sent_at: null },
  ],
  opened_at: '2026-04-15T21:10:00Z',
  recovered_at: '2026-04-15T23:30:00Z',
  order_id: 91,
  order_number: '1007',
};

afterEach(() => vi.unstubAllGlobals());

describe('AbandonedOrdersPage', () => {
  it('shows the recovery e-mails, the opened link and the order a checkout became, in words', async () => {
    showPages('/abandoned-orders', { '/abandoned-orders': <AbandonedOrdersPage /> }, () => Promise.resolve(onePage([base, recovered])));
    const [left, back] = await screen.findAllByTestId('abandoned-checkout');
    expect(within(left!).getByText('None sent')).toBeInTheDocument();
    expect(within(left!).getByText('Not opened')).toBeInTheDocument();
    expect(within(left!).getByText('Not recovered')).toBeInTheDocument();
    expect(within(left!).getByText('Classic Tee (Black, M) × 2')).toBeInTheDocument();
    expect(within(left!).getByText('USD 44.99')).toBeInTheDocument();
    expect(within(back!).getByText('E-mail 1 sent')).toBeInTheDocument();
    expect(within(back!).getByText('E-mail 2 failed')).toBeInTheDocument();
    expect(within(back!).getByText('Order #1007')).toHaveAttribute('href', '/orders/detail/91');
    // 23:30 UTC is 01:30 the next day at +2.
    expect(within(back!).getByText(/Apr 16, 2026/)).toBeInTheDocument();
    expect(screen.getByText('2 abandoned checkouts')).toBeInTheDocument();
  });

  it('filters by recovered and a date preset', async () => {
    const calls = showPages('/abandoned-orders', { '/abandoned-orders': <AbandonedOrdersPage /> }, () => Promise.resolve(onePage([base])));
    await screen.findByTestId('abandoned-checkout');
    expect(calls[0]!.url.pathname).toBe('/api/seller/abandoned-checkouts');
    await userEvent.click(screen.getByRole('combobox', { name: 'Recovered' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Not recovered' }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Date' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Last 7 days' }));
    await waitFor(() => {
      const last = calls.at(-1)!.url;
      expect(last.searchParams.get('recovered')).toBe('no');
      expect(last.searchParams.get('date_range')).toBe('last_7_days');
      expect(last.searchParams.get('page')).toBe('1');
    });
  });
});
