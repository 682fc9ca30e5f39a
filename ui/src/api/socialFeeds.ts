import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

export type FeedFormat = 'google' | 'facebook';

/** A social feed of a store (bff/socialfeeds). `campaigns` comes with one feed, not the list. */
export interface SocialFeed {
  id: number;
  name: string;
  store_id: number;
  store_name: string;
  format: FeedFormat;
  all_campaigns: boolean;
  campaigns_count: number;
  campaigns: { id: number; name: string }[] | null;
  /** The stable address catalogues fetch it from. */
  url: string;
  /** building: a build is queued or running; failed: the last one failed (`error` says why); ready. */
  state: 'building' | 'failed' | 'ready';
  built_at: string | null;
  item_count: number;
  skipped_count: number;
  byte_size: number;
  error: string;
  created_at: string;
  updated_at: string;
}

export interface SocialFeedInput {
  name: string;
  store_id: number;
  format: FeedFormat;
  all_campaigns: boolean;
  campaign_ids: number[];
}

export const FEED_FORMATS: readonly { value: FeedFormat; label: string; file: string }[] = [
  { value: 'google', label: 'Google Merchant', file: 'XML' },
  { value: 'facebook', label: 'Facebook catalogue', file: 'CSV' },
];

export const socialFeeds = (api: ApiClient, page: number, q: string, signal?: AbortSignal) =>
  api.getPage<SocialFeed>('/seller/social-feeds', { query: { page, per_page: 15, q: q || undefined }, signal });
export const socialFeed = (api: ApiClient, id: number, signal?: AbortSignal) => api.get<SocialFeed>(`/seller/social-feeds/${id}`, { signal });
/** Creates (id null) or saves a feed; the envelope carries the message to show. */
export const saveSocialFeed = (api: ApiClient, id: number | null, input: SocialFeedInput) =>
  api.send<Envelope<SocialFeed>>(id === null ? 'POST' : 'PUT', id === null ? '/seller/social-feeds' : `/seller/social-feeds/${id}`, {
    body: input,
  });
export const rebuildSocialFeed = (api: ApiClient, id: number) => api.send<Envelope<SocialFeed>>('POST', `/seller/social-feeds/${id}/rebuild`);
export const deleteSocialFeed = (api: ApiClient, id: number) => api.send<Envelope<null>>('DELETE', `/seller/social-feeds/${id}`);
export const downloadSocialFeed = (api: ApiClient, id: number) => api.download(`/seller/social-feeds/${id}/download`);
