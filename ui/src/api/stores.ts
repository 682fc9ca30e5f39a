import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** A seller's store (bff/stores). */
export interface Store {
  id: number;
  name: string;
  slug: string;
  domain: string;
  logo_key: string;
  favicon_key: string;
  primary_color: string;
  accent_color: string;
  currency: 'EUR' | 'USD';
  target_market: 'Europe' | 'United States' | 'Canada' | 'World Wide';
  review_setting: 'disable' | 'enable-only-store' | 'enable-share-review';
  is_open: boolean;
  campaigns: number;
  created_at: string;
  updated_at: string;
}

/** What a seller sends to create or change a store. */
export type StoreInput = Pick<
  Store,
  | 'name'
  | 'slug'
  | 'logo_key'
  | 'favicon_key'
  | 'primary_color'
  | 'accent_color'
  | 'currency'
  | 'target_market'
  | 'review_setting'
  | 'is_open'
>;

/** A campaign's product on sale in a store; price in minor units of currency. */
export interface StoreProduct {
  product_id: number;
  campaign_id: number;
  campaign: string;
  name: string;
  base_cost: string;
  price: number;
  currency: string;
  status: string;
}

export interface SlugCheck {
  slug: string;
  available: boolean;
  message: string;
}

async function withMessage<T>(api: ApiClient, method: string, path: string, body?: unknown) {
  const { message, data } = await api.send<Envelope<T>>(method, path, { body });
  return { message, data };
}

export const CURRENCIES = ['USD', 'EUR'] as const;
export const TARGET_MARKETS = ['United States', 'Canada', 'Europe', 'World Wide'] as const;
export const REVIEW_SETTINGS = [
  { value: 'disable', label: 'Reviews off' },
  { value: 'enable-only-store', label: 'Reviews of this store only' },
  { value: 'enable-share-review', label: 'Reviews shared across stores' },
] as const;
export const PRODUCT_STATUSES = ['active', 'draft', 'inactive'] as const;

export const stores = (api: ApiClient, page: number, q: string, signal?: AbortSignal, perPage = 15) =>
  api.getPage<Store>('/seller/stores', { query: { page, per_page: perPage, q: q || undefined }, signal });
export const store = (api: ApiClient, id: number, signal?: AbortSignal) => api.get<Store>(`/seller/stores/${id}`, { signal });
export const createStore = (api: ApiClient, body: StoreInput) => withMessage<Store>(api, 'POST', '/seller/stores', body);
export const updateStore = (api: ApiClient, id: number, body: StoreInput) =>
  withMessage<Store>(api, 'PUT', `/seller/stores/${id}`, body);
export const deleteStore = (api: ApiClient, id: number) => withMessage<null>(api, 'DELETE', `/seller/stores/${id}`);
export const checkSlug = (api: ApiClient, slug: string, except: number, signal?: AbortSignal) =>
  api.get<SlugCheck>('/seller/stores/slug-availability', { query: { slug, except }, signal });
export const storeProducts = (api: ApiClient, id: number, signal?: AbortSignal) =>
  api.get<StoreProduct[]>(`/seller/stores/${id}/products`, { signal });
export const publishCampaign = (
  api: ApiClient,
  storeId: number,
  body: { campaign_id: number; margin: string; status: string },
) => withMessage<StoreProduct[]>(api, 'POST', `/seller/stores/${storeId}/campaigns`, body);

/** Minor units as the store's money: 1999 USD -> $19.99. */
export function formatMinor(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount / 100);
}
