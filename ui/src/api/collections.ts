import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';
import type { SlugCheck } from './stores';

/** A campaign of a collection; `featured_position` (1, 2, ...) orders the featured ones, null for the others. */
export interface CollectionCampaign {
  id: number;
  name: string;
  featured_position: number | null;
}

/** A seller's collection (bff/collections). `campaigns` (featured first, in order) comes with one collection, not the list. */
export interface Collection {
  id: number;
  name: string;
  slug: string;
  description: string;
  all_stores: boolean;
  store_ids: number[];
  stores: { id: number; name: string }[];
  campaigns: CollectionCampaign[] | null;
  campaigns_count: number;
  featured_count: number;
  created_at: string;
  updated_at: string;
}

/** What the edit screen sends. */
export interface CollectionInput {
  name: string;
  slug: string;
  description: string;
  all_stores: boolean;
  store_ids: number[];
  campaign_ids: number[];
}

/** How many campaigns of a collection may be featured (bff/collections MaxFeatured). */
export const MAX_FEATURED = 12;

export const collections = (api: ApiClient, page: number, q: string, signal?: AbortSignal) =>
  api.getPage<Collection>('/seller/collections', { query: { page, per_page: 15, q: q || undefined }, signal });
export const collection = (api: ApiClient, id: number, signal?: AbortSignal) => api.get<Collection>(`/seller/collections/${id}`, { signal });
/** Creates (id null) or saves a collection; the envelope carries the message to show. */
export const saveCollection = (api: ApiClient, id: number | null, input: CollectionInput) =>
  api.send<Envelope<Collection>>(id === null ? 'POST' : 'PUT', id === null ? '/seller/collections' : `/seller/collections/${id}`, {
    body: input,
  });
export const deleteCollection = (api: ApiClient, id: number) => api.send<Envelope<null>>('DELETE', `/seller/collections/${id}`);
/** Makes `campaignIds` the collection's featured campaigns, in that order. */
export const saveFeatured = (api: ApiClient, id: number, campaignIds: number[]) =>
  api.send<Envelope<Collection>>('PUT', `/seller/collections/${id}/featured-campaigns`, { body: { campaign_ids: campaignIds } });
export const checkCollectionSlug = (api: ApiClient, slug: string, except: number, signal?: AbortSignal) =>
  api.get<SlugCheck>('/seller/collections/slug-availability', { query: { slug, except }, signal });

/** An address made from a name: "Summer Sale!" -> "summer-sale". */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}
