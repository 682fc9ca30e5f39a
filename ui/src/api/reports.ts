import type { ApiClient } from './ApiClient';
import type { Money } from './orders';

/** A number of the overview and the same number over the period just before (bff/reports). */
export interface Figure<T = number> {
  value: T;
  previous: T;
}

/** The overview's cards; money in minor units. */
export interface OverviewFigures {
  sales: Figure<Money>;
  orders: Figure;
  items: Figure;
  average_order_value: Figure<Money>;
  earnings: Figure<Money>;
  visits: Figure;
}

/** One bar or point of a chart: the orders of a key and what they sold (minor units of the overview's currency). */
export interface OverviewSlice {
  key: string;
  label: string;
  orders: number;
  sales: number;
  /** Devices only: the store pages opened from the device class. */
  visits?: number;
}

export interface OverviewCampaign {
  id: number;
  name: string;
  orders: number;
  items: number;
  sales: number;
}

export interface Overview {
  period: { from: string; to: string };
  previous: { from: string; to: string };
  currency: string;
  /** The currencies sold in over both periods, the most orders first. */
  currencies: string[];
  figures: OverviewFigures;
  days: OverviewSlice[];
  countries: OverviewSlice[];
  stores: OverviewSlice[];
  devices: OverviewSlice[];
  payment_methods: OverviewSlice[];
  top_campaigns: OverviewCampaign[];
}

/** The overview's filters as the API reads them; '' means any (the currency: the one with the most orders). */
export interface OverviewFilters {
  date_range: string;
  from: string;
  to: string;
  store_id: string;
  currency: string;
}

export const DEFAULT_OVERVIEW_FILTERS: OverviewFilters = { date_range: 'last_30_days', from: '', to: '', store_id: '', currency: '' };

function query(f: OverviewFilters): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(f) as (keyof OverviewFilters)[]) out[key] = f[key] === '' ? undefined : f[key];
  return out;
}

/** `GET /api/seller/reports/overview` (needs get_reports). */
export const overview = (api: ApiClient, f: OverviewFilters, signal?: AbortSignal) =>
  api.get<Overview>('/seller/reports/overview', { query: query(f), signal });

/** A product sold over the range and what it left after its costs (bff/reports, docs/overview.md). */
export interface ProductMargin {
  product_id: number;
  product: string;
  campaign_id: number;
  campaign: string;
  units: number;
  sales: Money;
  base_cost: Money;
  extra_print_cost: Money;
  fees: Money;
  margin: Money;
}

export interface Margins {
  period: { from: string; to: string };
  currency: string;
  currencies: string[];
  products: ProductMargin[];
}

/** `GET /api/seller/reports/margins` (needs get_reports): the margin per product, the largest first. */
export const margins = (api: ApiClient, f: OverviewFilters, signal?: AbortSignal) =>
  api.get<Margins>('/seller/reports/margins', { query: query(f), signal });
