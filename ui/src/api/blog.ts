import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';
import type { SlugCheck } from './stores';

/** A blog category of the seller's (bff/blog). */
export interface BlogCategory {
  id: number;
  name: string;
  slug: string;
  description: string;
  posts: number;
  created_at: string;
  updated_at: string;
}

export interface BlogCategoryInput {
  name: string;
  slug: string;
  description: string;
}

/** draft shows nowhere; scheduled is published with a date to come; published shows on the store. */
export type PostState = 'draft' | 'scheduled' | 'published';

export const POST_STATES: Readonly<Record<PostState, { label: string; color: string }>> = {
  draft: { label: 'Draft', color: 'gray' },
  scheduled: { label: 'Scheduled', color: 'blue' },
  published: { label: 'Published', color: 'green' },
};

/** A store's blog post; `body` is empty in lists. */
export interface BlogPost {
  id: number;
  store_id: number;
  store_name: string;
  store_slug: string;
  title: string;
  slug: string;
  excerpt: string;
  body: string;
  cover_key: string;
  cover_url: string;
  status: 'draft' | 'published';
  state: PostState;
  published_at: string | null;
  category_ids: number[];
  categories: { id: number; name: string; slug: string }[];
  created_at: string;
  updated_at: string;
}

export interface BlogPostInput {
  store_id: number;
  title: string;
  slug: string;
  excerpt: string;
  body: string;
  cover_key: string;
  category_ids: number[];
  status: 'draft' | 'published';
  published_at: string | null;
}

export const blogCategories = (api: ApiClient, page: number, q: string, signal?: AbortSignal, perPage = 15) =>
  api.getPage<BlogCategory>('/seller/blog/categories', { query: { page, per_page: perPage, q: q || undefined }, signal });
export const saveBlogCategory = (api: ApiClient, id: number | null, input: BlogCategoryInput) =>
  api.send<Envelope<BlogCategory>>(id === null ? 'POST' : 'PUT', id === null ? '/seller/blog/categories' : `/seller/blog/categories/${id}`, {
    body: input,
  });
export const deleteBlogCategory = (api: ApiClient, id: number) => api.send<Envelope<null>>('DELETE', `/seller/blog/categories/${id}`);
export const checkCategorySlug = (api: ApiClient, slug: string, except: number, signal?: AbortSignal) =>
  api.get<SlugCheck>('/seller/blog/categories/slug-availability', { query: { slug, except }, signal });

export const blogPosts = (
  api: ApiClient,
  query: { storeId: number; page: number; q: string; state: PostState | null },
  signal?: AbortSignal,
) =>
  api.getPage<BlogPost>('/seller/blog/posts', {
    query: { store_id: query.storeId, page: query.page, per_page: 15, q: query.q || undefined, state: query.state ?? undefined },
    signal,
  });
export const blogPost = (api: ApiClient, id: number, signal?: AbortSignal) => api.get<BlogPost>(`/seller/blog/posts/${id}`, { signal });
export const saveBlogPost = (api: ApiClient, id: number | null, input: BlogPostInput) =>
  api.send<Envelope<BlogPost>>(id === null ? 'POST' : 'PUT', id === null ? '/seller/blog/posts' : `/seller/blog/posts/${id}`, { body: input });
export const deleteBlogPost = (api: ApiClient, id: number) => api.send<Envelope<null>>('DELETE', `/seller/blog/posts/${id}`);
export const checkPostSlug = (api: ApiClient, storeId: number, slug: string, except: number, signal?: AbortSignal) =>
  api.get<SlugCheck>('/seller/blog/posts/slug-availability', { query: { store_id: storeId, slug, except }, signal });
