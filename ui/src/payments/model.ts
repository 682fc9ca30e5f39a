import type { PaymentAccountStatus } from '../api/paymentAccounts';
import { plural } from '../format/plural';

/** The query keys every gateway and account query starts with, so one invalidation refreshes them all. */
export const GATEWAYS_KEY = ['payment-gateways'];
export const ACCOUNTS_KEY = ['payment-accounts'];

/** A payment account's status in words, and its badge colour. */
export const ACCOUNT_STATUS: Readonly<Record<PaymentAccountStatus, { label: string; color: string }>> = {
  new: { label: 'Waiting for confirmation', color: 'yellow' },
  valid: { label: 'Confirmed', color: 'green' },
  invalid: { label: 'Invalid', color: 'red' },
};

/** The stores a gateway takes payments for, in words. */
export function storesOf(stores: readonly { name: string }[]): string {
  return stores.length === 0 ? 'No store yet' : stores.map((s) => s.name).join(', ');
}

/** What deleting a gateway does, said before it is done. */
export function deleteGatewayText(g: { stores: readonly { name: string }[]; pending_checkouts: number }): string {
  const stores =
    g.stores.length === 0 ? 'No store uses it.' : `${storesOf(g.stores)} will take payments through Pressroom again.`;
  const pending =
    g.pending_checkouts === 0
      ? ''
      : ` Payments buyers already started (${plural(g.pending_checkouts, 'checkout')}) still complete into your Stripe account.`;
  return stores + pending;
}
