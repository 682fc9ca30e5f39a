import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Customer, CustomerDetail } from '../api/customers';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { CustomerDetailPage } from './CustomerDetailPage';
import { CustomersPage } from './CustomersPage';

const alice: Customer = {
  id: 4,
  email: 'alice@example.com',
  name: 'Alice Archer',
  country: 'DE',
  country_name: 'Germany',
  orders: 2,
  total_spent: [
    { amount: 1999, currency: 'EUR' },
    { amount: 4499, currency: 'USD' },
  ],
  first_order_at: '2026-04-01T10:00:00Z',
  last_order_at: '2026-04-15T23:30:00Z',
};

const routes = { '/customers': <CustomersPage />, '/customers/detail/:id': <CustomerDetailPage /> };

afterEach(() => vi.unstubAllGlobals());

describe('CustomersPage', () => {
  it('lists customers with money per currency and dates in the seller offset, searches and sorts', async () => {
    const calls = showPages('/customers', routes, () => Promise.resolve(onePage([alice])));
    const row = await screen.findByTestId('customer');
    expect(within(row).getByText('Alice Archer')).toHaveAttribute('href', '/customers/detail/4');
    expect(within(row).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(row).getByText('Germany')).toBeInTheDocument();
    expect(within(row).getByText('USD 44.99')).toBeInTheDocument();
    expect(within(row).getByText(/19,99/)).toBeInTheDocument();
    // 23:30 UTC is 01:30 the next day at +2.
    expect(within(row).getByText(/Apr 16, 2026/)).toBeInTheDocument();
    expect(screen.getByText('1 customer')).toBeInTheDocument();
    const first = calls[0]!.url;
    expect(first.pathname).toBe('/api/seller/customers');
    expect(first.searchParams.get('per_page')).toBe('15');
    expect(first.searchParams.get('order_by')).toBe('last_order_at:desc');

    await userEvent.type(screen.getByLabelText('Search customers'), 'ali');
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('q')).toBe('ali'));
    await userEvent.click(screen.getByRole('combobox', { name: 'Sort customers' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Most spent' }));
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('order_by')).toBe('total_spent:desc'));
    expect(calls.at(-1)!.url.searchParams.get('page')).toBe('1');
  });

  it('exports the searched list as CSV', async () => {
    const createObjectURL = vi.fn(() => 'blob:customers');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const calls = showPages('/customers', routes, (url) =>
      Promise.resolve(url.pathname.endsWith('export.csv') ? new Response('email\n', { headers: { 'Content-Type': 'text/csv' } }) : onePage([alice])),
    );
    await screen.findByTestId('customer');
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const exported = calls.find((c) => c.url.pathname === '/api/seller/customers/export.csv')!;
    expect(exported.url.searchParams.get('order_by')).toBe('last_order_at:desc');
  });
});

describe('CustomerDetailPage', () => {
  const detail: CustomerDetail = {
    ...alice,
    shipping_address: { name: 'Alice Archer', line1: '1 Main St', city: 'Berlin', postal_code: '10115', country: 'DE' },
    order_list: [
      {
        id: 77,
        number: '1002',
        store_name: "Sam's Print Shop",
        status: 'on_hold',
        payment_status: 'paid',
        fulfillment_status: 'unfulfilled',
        items: 3,
        total: { amount: 4499, currency: 'USD' },
        created_at: '2026-04-15T23:30:00Z',
      },
    ],
  };

  it('shows the buyer, their address and their orders linking to each order', async () => {
    showPages('/customers/detail/4', routes, (url) =>
      Promise.resolve(url.pathname === '/api/seller/customers/4' ? ok(detail) : json({ success: false, message: 'no', data: null, errors: [] }, 404)),
    );
    expect(await screen.findByRole('heading', { name: 'Alice Archer' })).toBeInTheDocument();
    expect(screen.getByTestId('customer-orders')).toHaveTextContent('2');
    expect(screen.getByText(/10115 Berlin/)).toBeInTheDocument();
    const order = screen.getByTestId('customer-order');
    expect(within(order).getByText('#1002')).toHaveAttribute('href', '/orders/detail/77');
    expect(within(order).getByText('On hold')).toBeInTheDocument();
    expect(within(order).queryByText('on_hold')).toBeNull();
  });

  it('says when the customer is not found', async () => {
    showPages('/customers/detail/9', routes, () => Promise.resolve(json({ success: false, message: 'Customer not found.', data: null, errors: [] }, 404)));
    expect(await screen.findByRole('alert')).toHaveTextContent('Customer not found.');
  });
});
