import type { ApiClient } from './ApiClient';
import type { Money } from './orders';

/** The kinds of discount a code gives (commerce/promotions). */
export const KIND_LABELS: Readonly<Record<string, string>> = {
  discount_with_percent: 'Percent off',
  free: 'Free shipping',
};

/** Where a code applies. */
export const APPLIES_TO_LABELS: Readonly<Record<string, string>> = {
  all: 'All my stores',
  stores: 'Chosen stores',
  campaigns: 'Chosen campaigns',
};

/** The states of a code in the list. */
export const STATUS_LABELS: Readonly<Record<string, string>> = {
  active: 'Active',
  scheduled: 'Scheduled',
  expired: 'Expired',
  used_up: 'Used up',
  disabled: 'Disabled',
};

/** A discount code with its state, paid uses and the sales of the orders that used it (bff/promotions). */
export interface Promotion {
  id: number;
  code: string;
  kind: string;
  percent: number;
  starts_at: string | null;
  ends_at: string | null;
  usage_limit: number | null;
  per_buyer_limit: number | null;
  min_order: Money;
  applies_to: string;
  store_ids: number[];
  campaign_ids: number[];
  disabled: boolean;
  status: string;
  uses: number;
  sales: { revenue: Money; discount: Money }[];
  stores: { id: number; name: string }[];
  campaigns: { id: number; name: string }[];
  created_at: string;
}

/** A promotion as the form sends it: amounts as decimals, empty limits and dates as null. */
export interface PromotionInput {
  code: string;
  kind: string;
  percent: number;
  starts_at: string | null;
  ends_at: string | null;
  usage_limit: number | null;
  per_buyer_limit: number | null;
  min_order: string;
  min_order_currency: string;
  applies_to: string;
  store_ids: number[];
  campaign_ids: number[];
}

/** A campaign with the active promotions that apply to it. */
export interface OnPromotion {
  id: number;
  name: string;
  promotions: { id: number; code: string; kind: string; percent: number }[];
}

export const promotions = (api: ApiClient, page: number, q: string, signal?: AbortSignal) =>
  api.getPage<Promotion>('/promotions', { query: { page, per_page: 15, q: q || undefined }, signal });

export const savePromotion = (api: ApiClient, id: number | null, input: PromotionInput) =>
  id === null ? api.post<Promotion>('/promotions', input) : api.send('PUT', `/promotions/${id}`, { body: input });

export const setPromotionDisabled = (api: ApiClient, id: number, disabled: boolean) =>
  api.send('POST', `/promotions/${id}/${disabled ? 'disable' : 'enable'}`);

export const deletePromotion = (api: ApiClient, id: number) => api.send('DELETE', `/promotions/${id}`);

export const onPromotion = (api: ApiClient, page: number, signal?: AbortSignal) =>
  api.getPage<OnPromotion>('/on-promotion', { query: { page, per_page: 15 }, signal });

/** What a code gives, in words: "25% off" or "Free shipping". */
export const discountLabel = (p: { kind: string; percent: number }) => (p.kind === 'free' ? 'Free shipping' : `${p.percent}% off`);
