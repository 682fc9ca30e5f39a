import type { Money } from '../api/orders';
import { formatPrice } from '../format/price';

/** Human words for the order statuses (commerce/orders). */
export const ORDER_STATUS_LABELS: Readonly<Record<string, string>> = {
  draft: 'Draft',
  pending_payment: 'Awaiting payment',
  pending: 'Pending',
  reviewing: 'In review',
  designing: 'Being designed',
  on_hold: 'On hold',
  processing: 'In production',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  archived: 'Archived',
  deleted: 'Deleted',
};

export const PAYMENT_STATUS_LABELS: Readonly<Record<string, string>> = {
  unpaid: 'Unpaid',
  paid: 'Paid',
  partially_paid: 'Partially paid',
  refunded: 'Refunded',
  partially_refunded: 'Partially refunded',
  authorized: 'Authorized',
  pending: 'Payment pending',
  failed: 'Payment failed',
  canceled: 'Payment canceled',
};

export const FULFILLMENT_STATUS_LABELS: Readonly<Record<string, string>> = {
  unfulfilled: 'Unfulfilled',
  fulfilled: 'Fulfilled',
  partial_fulfilled: 'Partially fulfilled',
  cancelled: 'Cancelled',
  on_hold: 'On hold',
  processing: 'In production',
  invalid: 'Invalid address',
  rejected: 'Rejected',
  reviewing: 'In review',
  designing: 'Being designed',
  on_delivery: 'On its way',
};

export const ORDER_TYPE_LABELS: Readonly<Record<string, string>> = {
  regular: 'Store order',
  fulfillment: 'Fulfillment',
  custom: 'Custom',
  fba: 'Amazon FBA',
};

/** Badge colours by status word. */
const COLORS: Readonly<Record<string, string>> = {
  paid: 'green',
  completed: 'green',
  fulfilled: 'green',
  processing: 'blue',
  pending: 'yellow',
  reviewing: 'grape',
  designing: 'grape',
  on_hold: 'orange',
  cancelled: 'gray',
  archived: 'gray',
  refunded: 'red',
  failed: 'red',
  invalid: 'red',
  rejected: 'red',
};

export const statusColor = (status: string) => COLORS[status] ?? 'gray';


/** Minor units to the currency's display: formatMoney({amount: 1999, currency: 'EUR'}) is "€19.99". */
export function formatMoney(m: Money): string {
  const locale = m.currency === 'EUR' ? 'de-DE' : 'en-US';
  return formatPrice(m.amount / 100, { code: m.currency, locale, rate: 1 });
}

/** The seller's action names on buttons. */
export const ACTION_LABELS: Readonly<Record<string, string>> = {
  hold: 'Hold',
  release: 'Release',
  cancel: 'Cancel order',
  refund: 'Refund',
  ship: 'Add tracking',
  deliver: 'Mark delivered',
  archive: 'Archive',
  update_address: 'Edit address',
};

/**
 * An amount typed in a currency's main unit ("12.5", "12.50") to minor units (1250), without floating point;
 * null when it is not a positive amount with at most two decimals.
 */
export function parseAmount(text: string): number | null {
  const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return cents > 0 ? cents : null;
}
