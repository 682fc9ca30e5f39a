import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';
import type { OrderDetail } from './orders';

/** An item ready to print (bff/orders QueueItem): paid, every print file approved, not shipped. */
export interface QueueItem {
  order_id: number;
  order_number: string;
  order_status: string;
  seller_name: string;
  item_id: number;
  product_name: string;
  color: string;
  size: string;
  quantity: number;
  print_files: number;
  created_at: string;
}

/** One line of a tracking CSV's report. */
export interface TrackingRow {
  line: number;
  order_number: string;
  ok: boolean;
  message: string;
}

export const productionQueue = (api: ApiClient, page: number, signal?: AbortSignal) =>
  api.getPage<QueueItem>('/admin/production', { query: { page, per_page: 25 }, signal });

/** The print files of the queue (of one day, YYYY-MM-DD, when given) as a zip with a manifest. */
export const productionBatch = (api: ApiClient, day: string) =>
  api.download('/admin/production/batch.zip', { query: { date: day || undefined } });

/** Moves an order into production. */
export async function produceOrder(api: ApiClient, orderId: number) {
  const { message, data } = await api.send<Envelope<OrderDetail>>('POST', `/admin/orders/${orderId}/actions/produce`);
  return { message, data };
}

/** Ships one item of an order with its carrier and tracking. */
export async function shipItem(api: ApiClient, orderId: number, itemId: number, parcel: { carrier: string; tracking_number: string; tracking_url: string }) {
  const { message, data } = await api.send<Envelope<OrderDetail>>('POST', `/admin/orders/${orderId}/actions/ship`, {
    body: { ...parcel, item_ids: [itemId] },
  });
  return { message, data };
}

/** Ships the orders of a CSV (order_number,carrier,tracking_number[,tracking_url]) and answers a report per line. */
export const uploadTracking = (api: ApiClient, csv: string) => api.post<TrackingRow[]>('/admin/production/tracking', { csv });
