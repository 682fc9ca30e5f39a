import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** A payout's status. */
export type PayoutStatus = 'pending' | 'processing' | 'completed' | 'on_hold' | 'cancelled';

/** What an admin does to a payout. */
export type PayoutStep = 'approve' | 'complete' | 'hold' | 'cancel';

/** A payout a seller asked for; amounts in minor units of `currency`. */
export interface Payout {
  id: number;
  seller_id: number;
  seller_name: string;
  seller_email: string;
  currency: string;
  amount: number;
  status: PayoutStatus;
  reference: string;
  note: string;
  created_at: string;
  updated_at: string;
  allowed_steps: PayoutStep[];
  /** The seller may still cancel it themselves (while it is pending). */
  withdrawable: boolean;
  /** The payment account it is paid to (null: deleted since), named as it was when requested. */
  payment_account_id: number | null;
  payment_account_label: string;
}

/** A confirmed payment account a payout may go to. */
export interface PayoutAccount {
  id: number;
  label: string;
  is_default: boolean;
}

/** The top of Billing & Payouts (bff/billing), in minor units of `currency`. */
export interface BillingSummary {
  currency: string;
  available: number;
  held: number;
  total: number;
  paying: number;
  owed: number;
  payout_min: number;
  open_payout: Payout | null;
  /** The seller's confirmed payment accounts, the default first. */
  payment_accounts: PayoutAccount[];
  others: { currency: string; available: number; held: number; paying: number; owed: number }[];
}

/** A ledger entry as the transactions table shows it. */
export interface Transaction {
  id: number;
  type: string;
  description: string;
  currency: string;
  amount: number;
  available: number;
  held: number;
  available_after: number;
  held_after: number;
  order_id: number | null;
  payout_id: number | null;
  reference: string;
  created_at: string;
}

/** The transactions' filters; empty values do not filter. */
export interface TransactionFilters {
  type: string;
  date_range: string;
  from: string;
  to: string;
}

export const NO_TRANSACTION_FILTERS: TransactionFilters = { type: '', date_range: '', from: '', to: '' };

function filterQuery(f: TransactionFilters) {
  const query: Record<string, string | undefined> = {};
  for (const key of Object.keys(f) as (keyof TransactionFilters)[]) query[key] = f[key] === '' ? undefined : f[key];
  return query;
}

export const billingSummary = (api: ApiClient, signal?: AbortSignal) => api.get<BillingSummary>('/seller/billing', { signal });

export const transactions = (api: ApiClient, page: number, f: TransactionFilters, signal?: AbortSignal) =>
  api.getPage<Transaction>('/seller/billing/transactions', { query: { page, per_page: 15, ...filterQuery(f) }, signal });

export const exportTransactions = (api: ApiClient, f: TransactionFilters) =>
  api.download('/seller/billing/transactions/export.csv', { query: filterQuery(f) });

export const sellerPayouts = (api: ApiClient, page: number, signal?: AbortSignal) =>
  api.getPage<Payout>('/seller/payouts', { query: { page, per_page: 15 }, signal });

/** Asks for a payout of `amount` (a decimal as typed, "50.00") to a payment account; the key makes a retry the same request. */
export async function requestPayout(api: ApiClient, amount: string, accountId: number, idempotencyKey: string) {
  const { message, data } = await api.send<Envelope<Payout>>('POST', '/seller/payouts', {
    body: { amount, payment_account_id: accountId },
    idempotencyKey,
  });
  return { message, data };
}

/** Cancels the seller's own pending payout; the amount is available again. */
export async function withdrawPayout(api: ApiClient, id: number) {
  const { message, data } = await api.send<Envelope<Payout>>('POST', `/seller/payouts/${id}/withdraw`);
  return { message, data };
}

export const adminPayouts = (api: ApiClient, page: number, status: string, signal?: AbortSignal) =>
  api.getPage<Payout>('/admin/payouts', { query: { page, per_page: 15, status: status || undefined }, signal });

export const stepPayout = (api: ApiClient, id: number, step: PayoutStep, body: { reference?: string; note?: string } = {}) =>
  api.post<Payout>(`/admin/payouts/${id}/${step}`, body);

/** An admin's correction of a seller's available balance. */
export interface Adjustment {
  seller_email: string;
  direction: 'credit' | 'debit';
  amount: string;
  reason: string;
}

export const adjustBalance = (api: ApiClient, a: Adjustment, idempotencyKey: string) =>
  api.send<Envelope<Transaction>>('POST', '/admin/ledger/adjustments', { body: a, idempotencyKey });

export const releaseOrder = (api: ApiClient, orderId: number) =>
  api.send<Envelope<Transaction>>('POST', `/admin/ledger/orders/${orderId}/release`);
