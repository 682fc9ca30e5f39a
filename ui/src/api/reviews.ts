import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** A review's status: a new one waits for the seller, who publishes or hides it (commerce/reviews). */
export type ReviewStatus = 'pending' | 'published' | 'hidden';

/** A buyer's review of an item they received (bff/reviews). */
export interface ProductReview {
  id: number;
  store: { id: number; name: string };
  campaign: { id: number; name: string } | null;
  order_id: number;
  order_number: string;
  product_name: string;
  color: string;
  size: string;
  author: string;
  rating: number;
  body: string;
  status: ReviewStatus;
  reply: string;
  replied_at: string | null;
  published_at: string | null;
  created_at: string;
  /** The buyer's photo and the renderer's check of it; `url` serves it once `ready`. */
  photo: { status: 'pending' | 'ready' | 'rejected'; message: string; url: string } | null;
}

/** The list's filters as the API reads them; '' means any. */
export interface ReviewFilters {
  q: string;
  rating: string;
  status: string;
  store_id: string;
  date_range: string;
  from: string;
  to: string;
}

export const NO_REVIEW_FILTERS: ReviewFilters = { q: '', rating: '', status: '', store_id: '', date_range: '', from: '', to: '' };

/** The longest reply (commerce/reviews MaxReply). */
export const MAX_REPLY = 2000;

export function productReviews(api: ApiClient, page: number, f: ReviewFilters, signal?: AbortSignal) {
  const query: Record<string, string | number | undefined> = { page, per_page: 15 };
  for (const key of Object.keys(f) as (keyof ReviewFilters)[]) query[key] = f[key] === '' ? undefined : f[key];
  return api.getPage<ProductReview>('/seller/product-reviews', { query, signal });
}

/** Publishes or hides a review; the envelope carries the message to show. */
export const setReviewStatus = (api: ApiClient, id: number, action: 'publish' | 'hide') =>
  api.send<Envelope<ProductReview>>('POST', `/seller/product-reviews/${id}/${action}`);
/** Saves the seller's reply (an empty one removes it). */
export const replyToReview = (api: ApiClient, id: number, reply: string) =>
  api.send<Envelope<ProductReview>>('PUT', `/seller/product-reviews/${id}/reply`, { body: { reply } });
/** The review's checked photo, fetched with the session. */
export const reviewPhoto = (api: ApiClient, url: string, signal?: AbortSignal) => api.download(url.replace(/^\/api/, ''), { signal });
