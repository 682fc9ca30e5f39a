import type { ApiClient } from './ApiClient';

/** A section of a store's sitemap (commerce/storesite). */
export type SitemapSectionName = 'pages' | 'campaigns' | 'collections' | 'blog';

/** The sections, in words. */
export const SECTION_LABELS: Readonly<Record<SitemapSectionName, string>> = {
  pages: 'Home and pages',
  campaigns: 'Campaigns',
  collections: 'Collections',
  blog: 'Blog posts',
};

export interface SitemapFile {
  id: string;
  section: SitemapSectionName;
  number: number;
  urls: number;
  url: string;
}

export interface SitemapSection {
  section: SitemapSectionName;
  urls: number;
  last_modified: string | null;
  files: SitemapFile[];
}

/** Where a store's sitemap can be submitted: its own address and each verified custom domain. */
export interface SitemapAddress {
  origin: string;
  sitemap: string;
  robots: string;
  custom: boolean;
}

export interface Sitemap {
  store_id: number;
  store_name: string;
  addresses: SitemapAddress[];
  sections: SitemapSection[];
  max_urls: number;
}

export interface SitemapUrl {
  url: string;
  last_modified: string | null;
}

export const sitemap = (api: ApiClient, storeId: number, signal?: AbortSignal) => api.get<Sitemap>(`/seller/stores/${storeId}/sitemap`, { signal });
export const sitemapUrls = (api: ApiClient, storeId: number, file: string, page: number, signal?: AbortSignal) =>
  api.getPage<SitemapUrl>(`/seller/stores/${storeId}/sitemap/${encodeURIComponent(file)}/urls`, { query: { page, per_page: 50 }, signal });
