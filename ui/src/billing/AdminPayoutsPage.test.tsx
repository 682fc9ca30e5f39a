import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Payout } from '../api/billing';
import { json, ok } from '../test/answers';
import { showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { AdminPayoutsPage } from './AdminPayoutsPage';

const payout = (change: Partial<Payout> = {}): Payout => ({
  id: 5,
  seller_id: 1,
  seller_name: 'Sam Seller',
  seller_email: 'seller@example.com',
  currency: 'USD',
  amount: 6000,
  status: 'processing',
  reference: '',
  note: '',
  created_at: '2026-04-15T23:30:00Z',
  updated_at: '2026-04-15T23:30:00Z',
  allowed_steps: ['complete', 'hold', 'cancel'],
  withdrawable: false,
  payment_account_id: 3,
  payment_account_label: 'Bank transfer · First Demo Bank · ••••••••6789',
  ...change,
});

const page = (data: Payout[]) => json({ data, total: data.length, per_page: 15, current_page: 1, last_page: 1, from: 1, to: data.length });


const show = (answer: Parameters<typeof showPages>[2]) =>
  showPages('/system/payouts', { '/system/payouts': <AdminPayoutsPage /> }, answer, makeUser({ roles: ['admin'] }));

afterEach(() => vi.unstubAllGlobals());

describe('AdminPayoutsPage', () => {
  it('lists pending payouts and completes one with its reference, refusing an empty one', async () => {
    let done = false;
    const calls = show((_url, init) => {
      if (init?.method === 'POST') {
        const body = JSON.parse(init.body as string) as { reference?: string };
        if (!body.reference)
          return Promise.resolve(
            json({ success: false, message: "Enter the payment's reference to complete the payout.", data: null, errors: [{ field: 'reference', message: "Enter the payment's reference to complete the payout." }] }, 422),
          );
        done = true;
        return Promise.resolve(ok(payout({ status: 'completed', reference: body.reference, allowed_steps: [] })));
      }
      return Promise.resolve(page([done ? payout({ status: 'completed', reference: 'WIRE-1', allowed_steps: [] }) : payout()]));
    });
    const row = await screen.findByTestId('admin-payout');
    expect(within(row).getByText('Processing')).toBeInTheDocument();
    expect(within(row).getByText('USD 60.00')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(calls[0]?.url.searchParams.get('status')).toBe('pending');

    await userEvent.click(within(row).getByRole('button', { name: 'Complete' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Complete payout' }));
    expect(await within(dialog).findByText("Enter the payment's reference to complete the payout.")).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Reference'), 'WIRE-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Complete payout' }));
    await waitFor(() => expect(screen.getByTestId('admin-payout')).toHaveTextContent('WIRE-1'));
    const post = calls.filter((c) => c.init?.method === 'POST').at(-1)!;
    expect(post.url.pathname).toBe('/api/admin/payouts/5/complete');
  });

  it('adjusts a balance and shows each refusal against its field', async () => {
    const calls = show((url, init) => {
      if (init?.method === 'POST' && url.pathname === '/api/admin/ledger/adjustments') {
        return Promise.resolve(json({ success: false, message: 'Enter the reason the seller will read (at most 500 characters).', data: null, errors: [{ field: 'reason', message: 'Enter the reason the seller will read (at most 500 characters).' }] }, 422));
      }
      return Promise.resolve(page([]));
    });
    await userEvent.type(await screen.findByLabelText('Seller e-mail'), 'seller@example.com');
    await userEvent.type(screen.getByLabelText('Amount'), '25.00');
    await userEvent.click(screen.getByRole('button', { name: 'Adjust balance' }));
    expect(await screen.findByText('Enter the reason the seller will read (at most 500 characters).')).toBeInTheDocument();
    const post = calls.find((c) => c.init?.method === 'POST')!;
    expect(JSON.parse(post.init?.body as string)).toEqual({ seller_email: 'seller@example.com', direction: 'credit', amount: '25.00', reason: '' });
  });

  it('shows where a payout goes, its details in the clear on request, and marks the account invalid', async () => {
    let status = 'valid';
    const calls = show((url, init) => {
      if (url.pathname === '/api/admin/payment-accounts/3/invalidate') {
        status = 'invalid';
        return Promise.resolve(json({ success: true, message: 'The payment account is marked invalid; the seller was told.', data: null, errors: [] }));
      }
      if (url.pathname === '/api/admin/payment-accounts/3') {
        return Promise.resolve(
          ok({
            id: 3, method: 'bank', method_label: 'Bank transfer', label: 'Bank transfer · First Demo Bank · ••••••••6789',
            fields: { holder_name: 'Sam Seller', bank_name: 'First Demo Bank', account_number: '000123456789' },
            status, status_note: status === 'invalid' ? 'The bank returned the transfer.' : '', is_default: false,
            confirm_sent_at: null, confirm_expires_at: null, confirmed_at: null, created_at: '2026-04-15T23:30:00Z',
            updated_at: '2026-04-15T23:30:00Z', seller_name: 'Sam Seller', seller_email: 'seller@example.com',
          }),
        );
      }
      void init;
      return Promise.resolve(page([payout()]));
    });
    const row = await screen.findByTestId('admin-payout');
    expect(within(row).getByText('Bank transfer · First Demo Bank · ••••••••6789')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('000123456789')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Reason the seller reads'), 'The bank returned the transfer.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark invalid' }));
    expect(await within(dialog).findByText('Marked invalid: The bank returned the transfer.')).toBeInTheDocument();
    const post = calls.find((c) => c.init?.method === 'POST')!;
    expect(JSON.parse(post.init?.body as string)).toEqual({ reason: 'The bank returned the transfer.' });
  });
});
