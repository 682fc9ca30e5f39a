import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderDetail } from '../api/orders';
import { refundable } from '../api/orders';
import { meQuery } from '../session/queries';
import { json, ok } from '../test/answers';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { parseAmount } from './labels';
import { OrderDetailPage } from './OrderDetailPage';

const usd = (amount: number) => ({ amount, currency: 'USD' });
const at = '2026-04-15T10:00:00Z';

const order = (over: Partial<OrderDetail> = {}): OrderDetail => ({
  id: 7,
  number: '1001',
  invoice_number: '',
  order_type: 'regular',
  store_id: 5,
  store_name: 'Shop',
  email: 'alice@example.com',
  customer_name: 'Alice Archer',
  status: 'pending',
  payment_status: 'paid',
  fulfillment_status: 'unfulfilled',
  subtotal: usd(4000),
  shipping: usd(499),
  discount: usd(0),
  tip: usd(0),
  total: usd(4499),
  created_at: at,
  updated_at: at,
  address_errors: null,
  items: [
    { id: 1, campaign_id: 2, product_id: 3, product_name: 'Classic Tee', product_type: 'tshirt', color: 'Black', size: 'M', quantity: 2, unit_price: usd(2000), personalization: {}, print_files: [] },
    { id: 2, campaign_id: 2, product_id: 4, product_name: 'Mug', product_type: 'mug', color: 'White', size: '', quantity: 1, unit_price: usd(499), personalization: {}, print_files: [] },
  ],
  shipping_address: { name: 'Alice Archer', city: 'Berlin', country: 'DE' },
  payments: [{ id: 1, gateway: 'test', own_gateway: '', intent_id: 'pi_1', amount: usd(4499), status: 'succeeded', created_at: at, refunds: [] }],
  shipments: [],
  events: [],
  allowed_actions: ['hold', 'cancel', 'ship', 'refund'],
  ...over,
});

function show(answer: (url: URL, init?: RequestInit) => Response) {
  const calls: { url: URL; init?: RequestInit }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      calls.push({ url, init });
      return Promise.resolve(answer(url, init));
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, makeUser({ utc_offset: 0, timezone: 'UTC' }));
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/orders/detail/7']}>
        <Routes>
          <Route path="/orders/detail/:id" element={<OrderDetailPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return calls;
}

/** A successful envelope with the message the bff says what happened in. */
const said = (data: unknown, message: string) => json({ success: true, message, data, errors: [] });

const posts = (calls: { url: URL; init?: RequestInit }[]) => calls.filter((c) => c.init?.method === 'POST');

afterEach(() => vi.unstubAllGlobals());

describe('parseAmount', () => {
  it('reads amounts in minor units without floating point', () => {
    expect(parseAmount('12.5')).toBe(1250);
    expect(parseAmount('12.50')).toBe(1250);
    expect(parseAmount('0.07')).toBe(7);
    expect(parseAmount('19,99')).toBe(1999);
    expect(parseAmount(' 3 ')).toBe(300);
    for (const bad of ['', '0', '0.00', '1.999', '-1', '1e3', 'abc', '1.2.3']) expect(parseAmount(bad)).toBeNull();
  });

  it('counts what is left to refund, pending refunds included and refused ones not', () => {
    const o = order();
    o.payments[0]!.refunds = [
      { id: 1, amount: usd(500), status: 'succeeded', reason: '', message: '', created_at: at },
      { id: 2, amount: usd(300), status: 'pending', reason: '', message: '', created_at: at },
      { id: 3, amount: usd(1000), status: 'failed', reason: '', message: 'no', created_at: at },
    ];
    expect(refundable(o)).toBe(4499 - 800);
  });
});

describe('Refund dialog', () => {
  it('refunds part of the order in its currency with an idempotency key, and shows the refund', async () => {
    let current = order();
    const calls = show((url, init) => {
      if (init?.method === 'POST') {
        current = order({ payment_status: 'partially_refunded' });
        current.payments[0]!.refunds = [{ id: 5, amount: usd(550), status: 'succeeded', reason: 'Late', message: '', created_at: at }];
        return said(current, 'Refunded USD 5.50.');
      }
      return url.pathname === '/api/seller/orders/7' ? ok(current) : json({ success: false, message: 'no', data: null, errors: [] }, 404);
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund order #1001' });
    expect(within(dialog).getByText(/USD 44.99 can still be refunded/)).toBeInTheDocument();
    const amount = within(dialog).getByLabelText('Amount (USD)');
    await userEvent.type(amount, '100');
    expect(within(dialog).getByText('At most USD 44.99 is left to refund.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Refund' })).toBeDisabled();
    await userEvent.clear(amount);
    await userEvent.type(amount, '5.5');
    await userEvent.type(within(dialog).getByLabelText(/Reason/), 'Late');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund USD 5.50' }));
    expect(await screen.findByTestId('order-refund')).toHaveTextContent(/Refunded USD 5.50 on .* — Late/);
    const post = posts(calls)[0]!;
    expect(post.url.pathname).toBe('/api/seller/orders/7/actions/refund');
    expect(JSON.parse(post.init?.body as string)).toEqual({ amount: 550, reason: 'Late' });
    expect(new Headers(post.init?.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f]{32}$/);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server refusal of the amount on its field', async () => {
    show((_url, init) =>
      init?.method === 'POST'
        ? json({ success: false, message: 'The amount is more than is left to refund: at most USD 1.00 can be refunded.', data: null, errors: [{ field: 'amount', message: 'The amount is more than is left to refund: at most USD 1.00 can be refunded.' }] }, 422)
        : ok(order()),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Amount (USD)'), '2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund USD 2.00' }));
    expect(await within(dialog).findByText(/at most USD 1.00 can be refunded/)).toBeInTheDocument();
  });
});

describe('Tracking dialog', () => {
  it('sends carrier, number, link and the items, and shows the shipment with its link', async () => {
    let current = order();
    const calls = show((_url, init) => {
      if (init?.method === 'POST') {
        current = order({
          status: 'processing',
          fulfillment_status: 'partial_fulfilled',
          allowed_actions: ['ship', 'deliver', 'refund'],
          shipments: [{ id: 3, order_item_id: 1, carrier: 'UPS', tracking: '1Z999', tracking_url: 'https://ups.example/1Z999', shipped_at: at, delivered_at: null }],
        });
        return said(current, 'Tracking added.');
      }
      return ok(current);
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add tracking' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add tracking to order #1001' });
    await userEvent.type(within(dialog).getByLabelText(/Carrier/), 'UPS');
    await userEvent.type(within(dialog).getByLabelText(/Tracking number/), '1Z999');
    await userEvent.type(within(dialog).getByLabelText(/Tracking link/), 'https://ups.example/1Z999');
    await userEvent.click(within(dialog).getByLabelText(/Mug/));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save tracking' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(JSON.parse(posts(calls)[0]!.init?.body as string)).toEqual({
      carrier: 'UPS',
      tracking_number: '1Z999',
      tracking_url: 'https://ups.example/1Z999',
      item_ids: [1],
    });
    const shipment = await screen.findByTestId('order-shipment');
    expect(within(shipment).getByText('Classic Tee')).toBeInTheDocument();
    expect(within(shipment).getByRole('link', { name: '1Z999' })).toHaveAttribute('href', 'https://ups.example/1Z999');
    expect(screen.getByRole('button', { name: 'Mark delivered' })).toBeInTheDocument();
  });
});

describe('Address dialog', () => {
  const flagged = () =>
    order({
      fulfillment_status: 'invalid',
      allowed_actions: ['hold', 'cancel', 'refund', 'update_address'],
      shipping_address: { name: 'Alice Archer', line1: '1 Main St', city: 'Austin', state: '', postal_code: 'ABC', country: 'US' },
      address_errors: [
        { field: 'state', message: 'Choose the state or province.' },
        { field: 'postal_code', message: 'Enter a valid postal code for this country.' },
      ],
    });

  it('is not offered when the order does not allow it', async () => {
    show(() => ok(order({ status: 'processing', allowed_actions: ['ship', 'refund'] })));
    await screen.findByRole('button', { name: 'Add tracking' });
    expect(screen.queryByRole('button', { name: 'Edit address' })).toBeNull();
  });

  it("shows what the rules refused, shows the server's refusal per field, then saves the fixed address", async () => {
    let current = flagged();
    let attempt = 0;
    const calls = show((_url, init) => {
      if (init?.method !== 'POST') return ok(current);
      attempt++;
      if (attempt === 1) {
        return json(
          { success: false, message: 'Check the shipping address: some fields are not valid for this country.', data: null, errors: [{ field: 'postal_code', message: 'Enter a valid postal code for this country.' }] },
          422,
        );
      }
      current = order({ shipping_address: { name: 'Alice Archer', line1: '1 Main St', city: 'Austin', state: 'US-TX', postal_code: '78701', country: 'US' } });
      return said(current, 'Shipping address updated.');
    });
    expect(await screen.findByTestId('address-errors')).toHaveTextContent('Choose the state or province.');
    await userEvent.click(screen.getByRole('button', { name: 'Edit address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the shipping address of order #1001' });
    expect(within(dialog).getByText('Choose the state or province.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/State or province/), 'US-TX');
    expect(within(dialog).queryByText('Choose the state or province.')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(await within(dialog).findByText('Enter a valid postal code for this country.')).toBeInTheDocument();
    const postal = within(dialog).getByLabelText(/Postal code/);
    await userEvent.clear(postal);
    await userEvent.type(postal, '78701');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const sent = posts(calls).map((c) => c.url.pathname);
    expect(sent).toEqual(['/api/seller/orders/7/actions/update_address', '/api/seller/orders/7/actions/update_address']);
    expect(JSON.parse(posts(calls)[1]!.init?.body as string)).toEqual({
      name: 'Alice Archer',
      line1: '1 Main St',
      line2: '',
      city: 'Austin',
      state: 'US-TX',
      postal_code: '78701',
      country: 'US',
      phone: '',
    });
    expect(await screen.findByText('78701 Austin')).toBeInTheDocument();
    expect(screen.queryByTestId('address-errors')).toBeNull();
  });

  it('shows a refusal of the order (in production since) above the buttons', async () => {
    const refused = 'This action is not possible now: update_address from processing: not possible once the order is processing.';
    show((_url, init) =>
      init?.method === 'POST'
        ? json({ success: false, message: refused, data: null, errors: [{ message: refused }] }, 409)
        : ok(flagged()),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Edit address' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('not possible once the order is processing');
  });
});
