import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingSummary, Payout, Transaction } from '../api/billing';
import { json, ok } from '../test/answers';
import { showPages } from '../test/pages';
import { exportFileName } from './labels';
import { PayoutsPage } from './PayoutsPage';

const summary = (change: Partial<BillingSummary> = {}): BillingSummary => ({
  currency: 'USD',
  available: 12500,
  held: 2420,
  total: 14920,
  paying: 0,
  owed: 0,
  payout_min: 5000,
  open_payout: null,
  payment_accounts: [
    { id: 3, label: 'Bank transfer · First Demo Bank · ••••••••6789', is_default: true },
    { id: 4, label: 'Payoneer · s•••@example.com', is_default: false },
  ],
  others: [],
  ...change,
});

const sale: Transaction = {
  id: 3,
  type: 'sale',
  description: 'Order 1001: sale $50.00 − base cost $16.00 = $24.20, held until the order ships',
  currency: 'USD',
  amount: 2420,
  available: 0,
  held: 2420,
  available_after: 0,
  held_after: 2420,
  order_id: 7,
  payout_id: null,
  reference: '',
  created_at: '2026-04-15T23:30:00Z',
};

const payout: Payout = {
  id: 5,
  seller_id: 1,
  seller_name: 'Sam',
  seller_email: 'seller@example.com',
  currency: 'USD',
  amount: 6000,
  status: 'pending',
  reference: '',
  note: '',
  created_at: '2026-04-15T23:30:00Z',
  updated_at: '2026-04-15T23:30:00Z',
  allowed_steps: ['approve', 'hold', 'cancel'],
  withdrawable: true,
  payment_account_id: 3,
  payment_account_label: 'Bank transfer · First Demo Bank · ••••••••6789',
};

const page = <T,>(data: T[]) => json({ data, total: data.length, per_page: 15, current_page: 1, last_page: 1, from: 1, to: data.length });


const show = (answer: Parameters<typeof showPages>[2]) => showPages('/payouts', { '/payouts': <PayoutsPage /> }, answer);

afterEach(() => vi.unstubAllGlobals());

describe('PayoutsPage', () => {
  it('shows available, held and total, and each transaction in words with its link', async () => {
    show((url) => {
      if (url.pathname === '/api/seller/billing') return Promise.resolve(ok(summary()));
      if (url.pathname === '/api/seller/billing/transactions') return Promise.resolve(page([sale]));
      return Promise.resolve(page([payout]));
    });
    expect(await screen.findByTestId('balance-available')).toHaveTextContent('USD 125.00');
    expect(screen.getByTestId('balance-held')).toHaveTextContent('USD 24.20');
    expect(screen.getByTestId('balance-total')).toHaveTextContent('USD 149.20');
    const row = await screen.findByTestId('transaction');
    expect(within(row).getByText('Sale')).toBeInTheDocument();
    expect(within(row).queryByText('sale')).toBeNull();
    expect(within(row).getByText(/held until the order ships/)).toBeInTheDocument();
    expect(within(row).getByText('View order')).toHaveAttribute('href', '/orders/detail/7');
    expect(within(row).getByText(/Apr 16, 2026/)).toBeInTheDocument();
    const p = await screen.findByTestId('payout');
    expect(within(p).getByText('Pending')).toBeInTheDocument();
    expect(within(p).getByText('Bank transfer · First Demo Bank · ••••••••6789')).toBeInTheDocument();
  });

  it('filters by type and date preset', async () => {
    const calls = show((url) => {
      if (url.pathname === '/api/seller/billing') return Promise.resolve(ok(summary()));
      return Promise.resolve(page(url.pathname === '/api/seller/billing/transactions' ? [sale] : []));
    });
    await screen.findByTestId('transaction');
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Refund' }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Date' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Last month' }));
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/seller/billing/transactions').at(-1)!;
      expect(last.url.searchParams.get('type')).toBe('refund');
      expect(last.url.searchParams.get('date_range')).toBe('last_month');
    });
  });

  it('requests a payout with an idempotency key and shows a refusal against the amount', async () => {
    let first = true;
    const calls = show((url, init) => {
      if (init?.method === 'POST') {
        if (first) {
          first = false;
          return Promise.resolve(
            json({ success: false, message: 'The least payout is $50.00.', data: null, errors: [{ field: 'amount', message: 'The least payout is $50.00.' }] }, 422),
          );
        }
        return Promise.resolve(json({ success: true, message: 'Your payout was requested.', data: payout, errors: [] }));
      }
      if (url.pathname === '/api/seller/billing') return Promise.resolve(ok(summary()));
      return Promise.resolve(page([]));
    });
    const amount = await screen.findByLabelText('Amount');
    await userEvent.type(amount, '10');
    await userEvent.click(screen.getByRole('button', { name: 'Request payout' }));
    expect(await screen.findByText('The least payout is $50.00.')).toBeInTheDocument();
    await userEvent.clear(amount);
    await userEvent.type(amount, '60.00');
    await userEvent.click(screen.getByRole('button', { name: 'Request payout' }));
    await waitFor(() => expect(amount).toHaveValue(''));
    const posts = calls.filter((c) => c.init?.method === 'POST');
    expect(posts).toHaveLength(2);
    const [refused, made] = posts as [(typeof posts)[0], (typeof posts)[0]];
    expect(JSON.parse(made.init?.body as string)).toEqual({ amount: '60.00', payment_account_id: 3 });
    // The refused request and its retry are one user action: the same key.
    const key = new Headers(made.init?.headers).get('Idempotency-Key');
    expect(key).toBeTruthy();
    expect(new Headers(refused.init?.headers).get('Idempotency-Key')).toBe(key);
  });

  it('pays to the account chosen, the default one unless told', async () => {
    const calls = show((url, init) => {
      if (init?.method === 'POST') return Promise.resolve(json({ success: true, message: 'Your payout was requested.', data: payout, errors: [] }));
      if (url.pathname === '/api/seller/billing') return Promise.resolve(ok(summary()));
      return Promise.resolve(page([]));
    });
    const to = await screen.findByRole('combobox', { name: 'Pay to' });
    expect(to).toHaveValue('Bank transfer · First Demo Bank · ••••••••6789');
    await userEvent.click(to);
    await userEvent.click(await screen.findByRole('option', { name: 'Payoneer · s•••@example.com' }));
    await userEvent.type(screen.getByLabelText('Amount'), '60.00');
    await userEvent.click(screen.getByRole('button', { name: 'Request payout' }));
    await waitFor(() => expect(calls.filter((c) => c.init?.method === 'POST')).toHaveLength(1));
    expect(JSON.parse(calls.find((c) => c.init?.method === 'POST')?.init?.body as string)).toEqual({ amount: '60.00', payment_account_id: 4 });
  });

  it('sends a seller without a confirmed account to Payment Accounts instead of a request', async () => {
    show((url) => {
      if (url.pathname === '/api/seller/billing') return Promise.resolve(ok(summary({ payment_accounts: [] })));
      return Promise.resolve(page([]));
    });
    expect(await screen.findByTestId('no-payout-account')).toHaveTextContent('Payouts are sent to a confirmed payment account.');
    expect(screen.getByRole('link', { name: 'Add one in Payment Accounts' })).toHaveAttribute('href', '/settings/payment-account');
    expect(screen.queryByRole('button', { name: 'Request payout' })).toBeNull();
  });

  it('offers no request while a payout is open, nor under the minimum', async () => {
    show((url) => {
      if (url.pathname === '/api/seller/billing') return Promise.resolve(ok(summary({ open_payout: payout, paying: 6000 })));
      return Promise.resolve(page([]));
    });
    expect(await screen.findByTestId('open-payout')).toHaveTextContent('Payout #5 of USD 60.00');
    expect(screen.queryByRole('button', { name: 'Request payout' })).toBeNull();
  });

  it('cancels a pending payout request, after which a new one can be asked for', async () => {
    let open: Payout | null = payout;
    const calls = show((url, init) => {
      if (init?.method === 'POST') {
        open = null;
        const message = 'Your payout request was cancelled; the amount is available again.';
        return Promise.resolve(json({ success: true, message, data: { ...payout, status: 'cancelled', withdrawable: false }, errors: [] }));
      }
      if (url.pathname === '/api/seller/billing') return Promise.resolve(ok(summary({ open_payout: open })));
      return Promise.resolve(page([]));
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel request' }));
    await waitFor(() => expect(calls.filter((c) => c.init?.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.init?.method === 'POST')?.url.pathname).toBe('/api/seller/payouts/5/withdraw');
    expect(await screen.findByRole('button', { name: 'Request payout' })).toBeInTheDocument();
    expect(screen.queryByTestId('open-payout')).toBeNull();
  });

  it('offers no cancel for a payout being processed', async () => {
    show((url) => {
      if (url.pathname === '/api/seller/billing') {
        return Promise.resolve(ok(summary({ open_payout: { ...payout, status: 'processing', withdrawable: false } })));
      }
      return Promise.resolve(page([]));
    });
    expect(await screen.findByTestId('open-payout')).toHaveTextContent('Processing');
    expect(screen.queryByRole('button', { name: 'Cancel request' })).toBeNull();
  });

  it('says why when the balance is under the minimum', async () => {
    show((url) => {
      if (url.pathname === '/api/seller/billing') return Promise.resolve(ok(summary({ available: 1000 })));
      return Promise.resolve(page([]));
    });
    expect(await screen.findByText(/Payouts start at USD 50.00. You have USD 10.00 available./)).toBeInTheDocument();
  });

  it('names the export with the seller date', () => {
    expect(exportFileName(new Date('2026-04-15T23:30:00Z'), 2)).toBe('billing-2026-04-16.csv');
    expect(exportFileName(new Date('2026-04-15T23:30:00Z'), -5)).toBe('billing-2026-04-15.csv');
  });
});
