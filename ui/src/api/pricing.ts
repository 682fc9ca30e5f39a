import type { ApiClient } from './ApiClient';
import type { Envelope, Page } from './envelope';
import type { Money } from './orders';

/** The price modes (docs/pricing.md). */
export const PRICE_MODES = ['adjust_price', 'fixed_price', 'custom_price'] as const;
export type PriceMode = (typeof PRICE_MODES)[number];

/** The kinds of a change of many campaigns' prices. */
export const CHANGE_KINDS = ['margin', 'price', 'percent'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** What prices are computed with in a store's currency; the percents as typed ("4", "3.5"). */
export interface PricingSettings {
  currency: string;
  processing_fee: string;
  processing_fee_min: Money;
  compare_price_rate: string;
  modes: PriceMode[];
}

/** One size of a product priced: what a unit costs, sells for, pays in fees and earns. */
export interface SizeQuote {
  size: string;
  cost: Money;
  price: Money;
  fee: Money;
  earnings: Money;
}

/** A product's prices explained (bff/pricing QuoteView); `compare_at_price` is the one the store shows beside `price`. */
export interface Quote {
  mode: PriceMode;
  price: Money;
  compare_at_price: Money | null;
  base_cost: Money;
  extra_print_cost: Money;
  margin: Money;
  sizes: SizeQuote[];
}

/** A campaign product on sale in a store with its prices. */
export interface PricedProduct {
  product_id: number;
  campaign_id: number;
  campaign: string;
  name: string;
  status: string;
  quote: Quote;
}

/** A campaign on sale in a store with its products. */
export interface PricedCampaign {
  id: number;
  name: string;
  products: PricedProduct[];
}

/** What a change does to one product; `after` is null with a `problem` when it cannot take it. */
export interface ChangeRow {
  product_id: number;
  campaign_id: number;
  campaign: string;
  name: string;
  before: Quote;
  after: Quote | null;
  problem: string;
}

/** A change of many products' prices, previewed or applied. */
export interface ChangeView {
  currency: string;
  rows: ChangeRow[];
  changed: number;
  refused: number;
}

/** A change as the screen sends it: amounts typed like 11.49, a percent as a whole number. */
export interface ChangeInput {
  store_id: number;
  campaign_ids: number[];
  change: { kind: ChangeKind; value: string };
}

/** One product's prices as the form sends them. */
export interface ProductPriceInput {
  store_id: number;
  mode: PriceMode;
  margin?: string;
  price?: string;
  sizes?: Record<string, string>;
}

export const pricingSettings = (api: ApiClient, storeId: number, signal?: AbortSignal) =>
  api.get<PricingSettings>('/seller/pricing/settings', { query: { store_id: storeId }, signal });

export const pricedCampaigns = (api: ApiClient, storeId: number, page: number, q: string, signal?: AbortSignal): Promise<Page<PricedCampaign>> =>
  api.getPage<PricedCampaign>('/seller/pricing', { query: { store_id: storeId, page, per_page: 15, q: q || undefined }, signal });

export const setProductPrices = (api: ApiClient, productId: number, input: ProductPriceInput) =>
  api.send<Envelope<PricedProduct>>('PUT', `/seller/pricing/products/${productId}`, { body: input });

export const previewChange = (api: ApiClient, input: ChangeInput) => api.post<ChangeView>('/seller/pricing/preview', input);

export const applyChange = (api: ApiClient, input: ChangeInput) => api.send<Envelope<ChangeView>>('POST', '/seller/pricing/apply', { body: input });
