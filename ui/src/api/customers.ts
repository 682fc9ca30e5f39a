import type { ApiClient } from './ApiClient';
import type { Money } from './orders';

/** A buyer of the account's orders (bff/customers): one per e-mail; what they paid less refunds, per currency. */
export interface Customer {
  id: number;
  email: string;
  name: string;
  country: string;
  country_name: string;
  orders: number;
  total_spent: Money[];
  first_order_at: string;
  last_order_at: string;
}

export interface CustomerOrder {
  id: number;
  number: string;
  store_name: string;
  status: string;
  payment_status: string;
  fulfillment_status: string;
  items: number;
  total: Money;
  created_at: string;
}

export interface CustomerDetail extends Customer {
  shipping_address: Record<string, string>;
  order_list: CustomerOrder[];
}

/** The columns the list sorts by, as `order_by` takes them. */
export type CustomerSort = 'last_order_at' | 'orders' | 'total_spent' | 'name' | 'email' | 'first_order_at';

export interface CustomerQuery {
  q: string;
  sort: CustomerSort;
  asc: boolean;
}

const listQuery = (c: CustomerQuery) => ({ q: c.q || undefined, order_by: `${c.sort}:${c.asc ? 'asc' : 'desc'}` });

export const sellerCustomers = (api: ApiClient, page: number, c: CustomerQuery, signal?: AbortSignal) =>
  api.getPage<Customer>('/seller/customers', { query: { page, per_page: 15, ...listQuery(c) }, signal });

export const exportCustomers = (api: ApiClient, c: CustomerQuery) =>
  api.download('/seller/customers/export.csv', { query: listQuery(c) });

export const sellerCustomer = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.get<CustomerDetail>(`/seller/customers/${id}`, { signal });

/** A recovery e-mail step of an abandoned checkout. */
export interface RecoveryMail {
  step: number;
  status: 'sending' | 'sent' | 'failed';
  sent_at: string | null;
}

/** An abandoned checkout of the account's stores (bff/abandoned). */
export interface AbandonedCheckout {
  id: string;
  store_id: number;
  store_name: string;
  email: string;
  items: number;
  lines: { name: string; color: string; size: string; quantity: number }[];
  total: Money;
  left_at: string;
  abandoned_at: string;
  recovery_mails: RecoveryMail[];
  opened_at: string | null;
  recovered_at: string | null;
  order_id: number | null;
  order_number: string;
}

export interface AbandonedFilters {
  q: string;
  recovered: '' | 'yes' | 'no';
  date_range: string;
  from: string;
  to: string;
}

export const NO_ABANDONED_FILTERS: AbandonedFilters = { q: '', recovered: '', date_range: '', from: '', to: '' };

export function abandonedCheckouts(api: ApiClient, page: number, f: AbandonedFilters, signal?: AbortSignal) {
  const query: Record<string, string | number | undefined> = { page, per_page: 15 };
  for (const key of Object.keys(f) as (keyof AbandonedFilters)[]) query[key] = f[key] === '' ? undefined : f[key];
  return api.getPage<AbandonedCheckout>('/seller/abandoned-checkouts', { query, signal });
}

/** A cross-selling rule (bff/crossselling): buyers of `campaign` also see `targets`; `orders` followed it. */
export interface CrossSellRule {
  id: number;
  campaign: { id: number; name: string };
  targets: { id: number; name: string }[];
  orders: number;
  created_at: string;
  updated_at: string;
}

export interface CrossSellInput {
  campaign_id: number;
  target_ids: number[];
}

export const crossSellRules = (api: ApiClient, page: number, signal?: AbortSignal) =>
  api.getPage<CrossSellRule>('/seller/cross-selling', { query: { page, per_page: 15 }, signal });

export const saveCrossSellRule = (api: ApiClient, id: number | null, input: CrossSellInput) =>
  id === null
    ? api.post<CrossSellRule>('/seller/cross-selling', input)
    : api.send('PUT', `/seller/cross-selling/${id}`, { body: input });

export const removeCrossSellRule = (api: ApiClient, id: number) => api.send('DELETE', `/seller/cross-selling/${id}`);
