import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderDetail, OrderRow } from '../api/orders';
import { meQuery } from '../session/queries';
import { json, ok } from '../test/answers';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { OrderDetailPage } from './OrderDetailPage';
import { OrdersPage } from './OrdersPage';

const usd = (amount: number) => ({ amount, currency: 'USD' });

const row: OrderRow = {
  id: 7,
  number: '1001',
  order_type: 'regular',
  store_id: 5,
  store_name: "Sam's Print Shop",
  email: 'alice@example.com',
  customer_name: 'Alice Archer',
  status: 'on_hold',
  payment_status: 'partially_refunded',
  fulfillment_status: 'unfulfilled',
  items: 2,
  subtotal: usd(4000),
  shipping: usd(499),
  discount: usd(0),
  tip: usd(0),
  total: usd(4499),
  created_at: '2026-04-15T23:30:00Z',
  updated_at: '2026-04-15T23:30:00Z',
  address_errors: null,
};

const detail = (status: string, allowed: OrderDetail['allowed_actions']): OrderDetail => ({
  ...row,
  status,
  invoice_number: 'INV-000001',
  items: [
    {
      id: 1,
      campaign_id: 2,
      product_id: 3,
      product_name: 'Classic Tee',
      product_type: 'tshirt',
      color: 'Black',
      size: 'M',
      quantity: 2,
      unit_price: usd(2000),
      personalization: { texts: [{ label: 'Name', value: 'Ada' }], images: [] },
      print_files: [
        { id: 9, print_space: 'Front', review_status: 'rejected', revision: 1, print_status: 'ready', print_error: '', designer_comment: 'Too blurry' },
      ],
    },
  ],
  shipping_address: { name: 'Alice Archer', line1: '1 Main St', city: 'Berlin', postal_code: '10115', country: 'DE' },
  payments: [{ id: 1, gateway: 'test', own_gateway: '', intent_id: 'pi_1', amount: usd(4499), status: 'succeeded', created_at: row.created_at, refunds: [] }],
  shipments: [],
  events: [
    { id: 1, action: 'created', from_status: '', to_status: 'pending_payment', actor: 'buyer', actor_name: '', note: '', created_at: row.created_at },
    { id: 2, action: 'hold', from_status: 'pending', to_status: 'on_hold', actor: 'user:1', actor_name: 'Sam Seller', note: 'Address check', created_at: row.created_at },
  ],
  allowed_actions: allowed,
});

function show(path: string, fetchImpl: (url: URL, init?: RequestInit) => Promise<Response>) {
  const calls: { url: URL; init?: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      calls.push({ url, init });
      return fetchImpl(url, init);
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, makeUser({ utc_offset: 2, timezone: 'Etc/GMT-2' }));
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/orders" element={<OrdersPage />} />
          <Route path="/orders/detail/:id" element={<OrderDetailPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return calls;
}

const page = (data: OrderRow[]) => json({ data, total: data.length, per_page: 15, current_page: 1, last_page: 1, from: 1, to: data.length });

afterEach(() => vi.unstubAllGlobals());

describe('OrdersPage', () => {
  it('lists orders with statuses in words and dates in the seller offset, and sends the filters', async () => {
    const calls = show('/orders', (url) => {
      if (url.pathname === '/api/seller/stores') return Promise.resolve(page([]));
      return Promise.resolve(page([row]));
    });
    const order = await screen.findByTestId('order');
    expect(within(order).getByText('#1001')).toHaveAttribute('href', '/orders/detail/7');
    expect(within(order).getByText('On hold')).toBeInTheDocument();
    expect(within(order).getByText('Partially refunded')).toBeInTheDocument();
    expect(within(order).getByText('Unfulfilled')).toBeInTheDocument();
    expect(within(order).queryByText('on_hold')).toBeNull();
    // 23:30 UTC is 01:30 the next day at +2.
    expect(within(order).getByText(/Apr 16, 2026/)).toBeInTheDocument();
    expect(within(order).getByText('USD 44.99')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Search orders'), 'alice');
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('q') === 'alice')).toBe(true));
    const last = calls.filter((c) => c.url.pathname === '/api/seller/orders').at(-1)!;
    expect(last.url.searchParams.get('page')).toBe('1');
    expect(last.url.searchParams.get('per_page')).toBe('15');
    expect(last.url.searchParams.has('status')).toBe(false);
  });

  it('filters by a status and a date preset', async () => {
    const calls = show('/orders', (url) => Promise.resolve(page(url.pathname === '/api/seller/orders' ? [row] : [])));
    await screen.findByTestId('order');
    await userEvent.click(screen.getByRole('combobox', { name: 'Order status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'On hold' }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Date' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Last 7 days' }));
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/seller/orders').at(-1)!;
      expect(last.url.searchParams.get('status')).toBe('on_hold');
      expect(last.url.searchParams.get('date_range')).toBe('last_7_days');
    });
  });

  it('downloads the filtered CSV', async () => {
    const createObjectURL = vi.fn(() => 'blob:orders');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const calls = show('/orders', (url) => {
      if (url.pathname === '/api/seller/orders/export.csv') return Promise.resolve(new Response('number\n1001\n', { headers: { 'Content-Type': 'text/csv' } }));
      return Promise.resolve(page(url.pathname === '/api/seller/orders' ? [row] : []));
    });
    await screen.findByTestId('order');
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(calls.some((c) => c.url.pathname === '/api/seller/orders/export.csv')).toBe(true);
  });
});

describe('OrderDetailPage', () => {
  it('shows items, print review, buyer, payment and timeline, and releases the order', async () => {
    let current = detail('on_hold', ['release', 'cancel']);
    const calls = show('/orders/detail/7', (url, init) => {
      if (init?.method === 'POST' && url.pathname === '/api/seller/orders/7/actions/release') {
        current = detail('pending', ['hold', 'cancel']);
        return Promise.resolve(ok(current));
      }
      if (url.pathname === '/api/seller/orders/7') return Promise.resolve(ok(current));
      return Promise.resolve(json({ success: false, message: 'no route', data: null, errors: [] }, 404));
    });
    expect(await screen.findByText('Order #1001')).toBeInTheDocument();
    const item = screen.getByTestId('order-item');
    expect(within(item).getByText('Classic Tee')).toBeInTheDocument();
    expect(within(item).getByText('Name: Ada')).toBeInTheDocument();
    expect(within(item).getByText(/Front: Rejected, Print file ready — “Too blurry”/)).toBeInTheDocument();
    expect(screen.getByText('Berlin', { exact: false })).toBeInTheDocument();
    expect(screen.getAllByTestId('order-event')).toHaveLength(2);
    expect(screen.getByText('Put on hold')).toBeInTheDocument();
    expect(screen.getByText('Address check')).toBeInTheDocument();
    expect(screen.getByText(/Sam Seller · Pending → On hold/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Hold' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Release' }));
    expect(await screen.findByRole('button', { name: 'Hold' })).toBeInTheDocument();
    expect(calls.some((c) => c.init?.method === 'POST' && c.url.pathname.endsWith('/actions/release'))).toBe(true);
  });

  it('asks before cancelling and shows a refusal', async () => {
    const calls = show('/orders/detail/7', (_url, init) => {
      if (init?.method === 'POST')
        return Promise.resolve(json({ success: false, message: 'This action is not possible now: cancel from processing: items have shipped.', data: null, errors: [] }, 409));
      return Promise.resolve(ok(detail('pending', ['hold', 'cancel'])));
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    expect(calls.some((c) => c.init?.method === 'POST')).toBe(false);
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Note for the timeline/), 'Buyer asked');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText(/items have shipped/)).toBeInTheDocument();
    const post = calls.find((c) => c.init?.method === 'POST')!;
    expect(post.url.pathname).toBe('/api/seller/orders/7/actions/cancel');
    expect(JSON.parse(post.init?.body as string)).toEqual({ note: 'Buyer asked' });
  });
});
