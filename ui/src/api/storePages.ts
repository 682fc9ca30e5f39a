import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';
import type { SlugCheck } from './stores';

/** Where a store's menu links a page (bff/stores MenuPositions). */
export type MenuPosition = 'header' | 'footer' | 'side_column';

/** The menus, in words. */
export const MENU_POSITIONS: readonly { value: MenuPosition; label: string }[] = [
  { value: 'header', label: 'Header' },
  { value: 'footer', label: 'Footer' },
  { value: 'side_column', label: 'Side column' },
];

/** A store page in the list (bff/stores PageSummary). */
export interface StorePageSummary {
  id: number;
  store_id: number;
  store_name: string;
  store_slug: string;
  title: string;
  slug: string;
  menu_position: MenuPosition;
  position: number;
  published: boolean;
  updated_at: string;
}

/** A store page with its body (sanitized HTML). */
export interface StorePage extends StorePageSummary {
  body: string;
}

/** What the page editor sends. */
export interface StorePageInput {
  store_id: number;
  title: string;
  slug: string;
  body: string;
  menu_position: MenuPosition;
  position: number;
  published: boolean;
}

export const storePages = (api: ApiClient, query: { page: number; q: string; storeId: number | null }, signal?: AbortSignal) =>
  api.getPage<StorePageSummary>('/seller/store-pages', {
    query: { page: query.page, per_page: 15, q: query.q || undefined, store_id: query.storeId ?? undefined },
    signal,
  });
export const storePage = (api: ApiClient, id: number, signal?: AbortSignal) => api.get<StorePage>(`/seller/store-pages/${id}`, { signal });
/** Creates (id null) or saves a page; the envelope carries the message to show. */
export const saveStorePage = (api: ApiClient, id: number | null, input: StorePageInput) =>
  api.send<Envelope<StorePage>>(id === null ? 'POST' : 'PUT', id === null ? '/seller/store-pages' : `/seller/store-pages/${id}`, { body: input });
export const deleteStorePage = (api: ApiClient, id: number) => api.send<Envelope<null>>('DELETE', `/seller/store-pages/${id}`);
export const checkPageSlug = (api: ApiClient, storeId: number, slug: string, except: number, signal?: AbortSignal) =>
  api.get<SlugCheck>('/seller/store-pages/slug-availability', { query: { store_id: storeId, slug, except }, signal });
