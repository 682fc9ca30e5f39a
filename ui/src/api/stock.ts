import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** One colour and size of a catalogue template with its status (commerce/stock Row). */
export interface StockRow {
  template_id: number;
  template_name: string;
  product_type: string;
  color: string;
  hex: string;
  size: string;
  in_stock: boolean;
  out_of_stock_since: string | null;
}

/** A colour and a size. */
export interface StockOption {
  color: string;
  size: string;
}

/** A product of the seller's campaign sold in colours and sizes out of stock (bff/stock Touched). */
export interface TouchedProduct {
  campaign_id: number;
  campaign_name: string;
  product_id: number;
  product_name: string;
  out_of_stock: StockOption[];
}

/** One change of the admin's history (commerce/stock Entry). */
export interface StockChange {
  id: number;
  template_id: number;
  template_name: string;
  color: string;
  size: string;
  in_stock: boolean;
  changed_by: string;
  changed_at: string;
}

/** A change the admin sends. */
export interface StockChangeInput extends StockOption {
  template_id: number;
  in_stock: boolean;
}

/** Every colour and size of the catalogue: admins read it through their own route. */
export const stockGrid = (api: ApiClient, admin: boolean, signal?: AbortSignal) =>
  api.get<StockRow[]>(admin ? '/admin/stock-status' : '/seller/stock-status', { signal });

/** The seller's campaign products that sell something out of stock. */
export const touchedProducts = (api: ApiClient, signal?: AbortSignal) => api.get<TouchedProduct[]>('/seller/stock-status/campaigns', { signal });

/** The latest changes, newest first (admins). */
export const stockHistory = (api: ApiClient, signal?: AbortSignal) => api.get<StockChange[]>('/admin/stock-status/history', { signal });

/** Sets several colours and sizes in or out of stock at once (admins); answers the message and how many changed. */
export async function setStock(api: ApiClient, changes: StockChangeInput[]) {
  const { message, data } = await api.send<Envelope<{ changed: number }>>('PUT', '/admin/stock-status', { body: { changes } });
  return { message, changed: data.changed };
}
