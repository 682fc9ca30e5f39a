import type { ApiClient } from './ApiClient';

/** A query buyers typed in the account's stores, counted over the range (bff/searchkeywords). */
export interface SearchKeyword {
  query: string;
  searches: number;
  /** Searches that found nothing. */
  no_results: number;
  /** What the latest search found. */
  results: number;
  last_searched_at: string;
}

export interface SearchKeywordSummary {
  searches: number;
  queries: number;
  no_results: number;
}

/** The screen's filters as the API reads them; '' means any. */
export interface KeywordFilters {
  store_id: string;
  date_range: string;
  from: string;
  to: string;
}

export const NO_KEYWORD_FILTERS: KeywordFilters = { store_id: '', date_range: 'last_30_days', from: '', to: '' };

function query(f: KeywordFilters): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(f) as (keyof KeywordFilters)[]) out[key] = f[key] === '' ? undefined : f[key];
  return out;
}

/** The top queries (`top`) or those that found nothing (`no_results`). */
export const searchKeywords = (api: ApiClient, kind: 'top' | 'no_results', page: number, f: KeywordFilters, signal?: AbortSignal) =>
  api.getPage<SearchKeyword>('/seller/search-keywords', { query: { ...query(f), kind, page, per_page: 15 }, signal });
export const searchKeywordSummary = (api: ApiClient, f: KeywordFilters, signal?: AbortSignal) =>
  api.get<SearchKeywordSummary>('/seller/search-keywords/summary', { query: query(f), signal });
