import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderRow } from '../api/orders';
import { meQuery } from '../session/queries';
import { json } from '../test/answers';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { InvalidAddressPage } from './InvalidAddressPage';

const usd = (amount: number) => ({ amount, currency: 'USD' });

const row: OrderRow = {
  id: 9,
  number: '1004',
  order_type: 'regular',
  store_id: 5,
  store_name: 'Shop',
  email: 'ivy@example.com',
  customer_name: 'Ivy Invalid',
  status: 'pending',
  payment_status: 'paid',
  fulfillment_status: 'invalid',
  items: 1,
  subtotal: usd(2000),
  shipping: usd(499),
  discount: usd(0),
  tip: usd(0),
  total: usd(2499),
  created_at: '2026-04-15T10:00:00Z',
  updated_at: '2026-04-15T10:00:00Z',
  address_errors: [{ field: 'postal_code', message: 'Enter a valid postal code for this country.' }],
};

function show(user: ReturnType<typeof makeUser>, rows: OrderRow[]) {
  const calls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const url = new URL(input, 'http://localhost');
      calls.push(url);
      return Promise.resolve(json({ data: rows, total: rows.length, per_page: 15, current_page: 1, last_page: 1, from: 1, to: rows.length }));
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, user);
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <InvalidAddressPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('InvalidAddressPage', () => {
  it('lists the orders whose address fails, with what is wrong and a way to fix it', async () => {
    const calls = show(makeUser({ custom_payment: true }), [row]);
    const order = await screen.findByTestId('invalid-address-order');
    expect(within(order).getByRole('link', { name: '#1004' })).toHaveAttribute('href', '/orders/detail/9');
    expect(within(order).getByText('Postal code: Enter a valid postal code for this country.')).toBeInTheDocument();
    expect(within(order).getByRole('link', { name: 'Fix address' })).toHaveAttribute('href', '/orders/detail/9');
    expect(screen.queryByText(/Coming soon/i)).toBeNull();
    expect(calls[0]!.pathname).toBe('/api/seller/orders');
    expect(calls[0]!.searchParams.get('fulfillment_status')).toBe('invalid');
  });

  it('is gated like its menu item: without custom payments nothing is asked', async () => {
    const calls = show(makeUser({ custom_payment: false }), [row]);
    expect(await screen.findByText('Invalid Address is not available for this account')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
