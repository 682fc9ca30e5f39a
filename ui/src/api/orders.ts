import type { KeptPersonalization } from '../editor/personalize';
import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** An amount in minor units (cents) of its currency, as the bff sends money. */
export interface Money {
  amount: number;
  currency: string;
}

/** A row of the seller's orders list (bff/orders). */
export interface OrderRow {
  id: number;
  number: string;
  order_type: string;
  store_id: number | null;
  store_name: string;
  email: string;
  customer_name: string;
  status: string;
  payment_status: string;
  fulfillment_status: string;
  items: number;
  subtotal: Money;
  shipping: Money;
  discount: Money;
  tip: Money;
  total: Money;
  created_at: string;
  updated_at: string;
  /** The shipping address's fields the country rules refuse; null when it passes. */
  address_errors: AddressProblem[] | null;
}

/** A field of a shipping address the country rules refuse, and why. */
export interface AddressProblem {
  field: string;
  message: string;
}

export interface PrintFile {
  id: number;
  print_space: string;
  review_status: string;
  revision: number;
  print_status: string;
  print_error: string;
  designer_comment: string | null;
}

export interface OrderItem {
  id: number;
  campaign_id: number | null;
  product_id: number | null;
  product_name: string;
  product_type: string;
  color: string;
  size: string;
  quantity: number;
  unit_price: Money;
  personalization: KeptPersonalization;
  print_files: PrintFile[];
}

export interface OrderPayment {
  id: number;
  gateway: string;
  /** The seller's own payment gateway the buyer paid into, by its name; '' for Pressroom's. */
  own_gateway: string;
  intent_id: string;
  amount: Money;
  status: string;
  created_at: string;
  refunds: OrderRefund[];
}

/** Money given back from a payment: pending until the gateway answers, then succeeded or failed (message says why). */
export interface OrderRefund {
  id: number;
  amount: Money;
  status: 'pending' | 'succeeded' | 'failed';
  reason: string;
  message: string;
  created_at: string;
}

export interface OrderShipment {
  id: number;
  order_item_id: number;
  carrier: string;
  tracking: string;
  tracking_url: string;
  shipped_at: string;
  delivered_at: string | null;
}

export interface OrderEvent {
  id: number;
  action: string;
  from_status: string;
  to_status: string;
  actor: string;
  actor_name: string;
  note: string;
  created_at: string;
}

/** The seller's actions on an order (the others belong to payment, review and production). */
export type OrderAction = 'hold' | 'release' | 'cancel' | 'refund' | 'ship' | 'deliver' | 'archive' | 'update_address';

/** An order's page: the list's row, with `items` holding the lines rather than their count. */
export interface OrderDetail extends Omit<OrderRow, 'items'> {
  /** The order's invoice number; empty until the order is paid. */
  invoice_number: string;
  items: OrderItem[];
  shipping_address: Record<string, string>;
  payments: OrderPayment[];
  shipments: OrderShipment[];
  events: OrderEvent[];
  allowed_actions: OrderAction[];
}

/** The list's filters; empty values do not filter. */
export interface OrderFilters {
  q: string;
  status: string;
  payment_status: string;
  fulfillment_status: string;
  order_type: string;
  store_id: string;
  date_range: string;
  from: string;
  to: string;
}

export const NO_FILTERS: OrderFilters = {
  q: '',
  status: '',
  payment_status: '',
  fulfillment_status: '',
  order_type: '',
  store_id: '',
  date_range: '',
  from: '',
  to: '',
};

function filterQuery(f: OrderFilters) {
  const query: Record<string, string | undefined> = {};
  for (const key of Object.keys(f) as (keyof OrderFilters)[]) query[key] = f[key] === '' ? undefined : f[key];
  return query;
}

export const sellerOrders = (api: ApiClient, page: number, f: OrderFilters, signal?: AbortSignal) =>
  api.getPage<OrderRow>('/seller/orders', { query: { page, per_page: 15, ...filterQuery(f) }, signal });

export const exportOrders = (api: ApiClient, f: OrderFilters) =>
  api.download('/seller/orders/export.csv', { query: filterQuery(f) });

export const sellerOrder = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.get<OrderDetail>(`/seller/orders/${id}`, { signal });

export async function orderAction(api: ApiClient, id: number, action: OrderAction, note = '') {
  const { message, data } = await api.send<Envelope<OrderDetail>>('POST', `/seller/orders/${id}/actions/${action}`, {
    body: { note },
  });
  return { message, data };
}

/**
 * Gives `amount` (minor units of the order's currency) back through the order's payment gateway. `key` names this
 * refund (one per submit, sent again unchanged on a retry), so a retry refunds once.
 */
export async function refundOrder(api: ApiClient, id: number, amount: number, reason: string, key: string) {
  const { message, data } = await api.send<Envelope<OrderDetail>>('POST', `/seller/orders/${id}/actions/refund`, {
    body: { amount, reason },
    idempotencyKey: key,
  });
  return { message, data };
}

/** A parcel's tracking; no item ids means every item of the order. */
export interface Parcel {
  carrier: string;
  tracking_number: string;
  tracking_url: string;
  item_ids: number[];
}

export async function shipOrder(api: ApiClient, id: number, parcel: Parcel) {
  const { message, data } = await api.send<Envelope<OrderDetail>>('POST', `/seller/orders/${id}/actions/ship`, { body: parcel });
  return { message, data };
}

/** A shipping address as the orders API takes it: state and country are codes ("US-NY", "US"). */
export interface ShippingAddress {
  name: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  phone: string;
}

/** Replaces the order's shipping address; the server checks it by the country's rules (422 per field). */
export async function updateAddress(api: ApiClient, id: number, address: ShippingAddress) {
  const { message, data } = await api.send<Envelope<OrderDetail>>('POST', `/seller/orders/${id}/actions/update_address`, {
    body: address,
  });
  return { message, data };
}

/** What is left to refund: the succeeded payments less the refunds that went through or are on their way. */
export function refundable(order: Pick<OrderDetail, 'payments'>): number {
  return order.payments
    .filter((p) => p.status === 'succeeded')
    .reduce((left, p) => left + p.amount.amount - p.refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount.amount, 0), 0);
}
