import { queryOptions } from '@tanstack/react-query';
import { api } from '../api';
import { featuredInfo } from '../api/featured';

/** The carousel advances every 3 s and is at most 500 px wide. */
export const FEATURED_INTERVAL_MS = 3000;
export const FEATURED_MAX_WIDTH = 500;

/** Cached between screens, and fetched again whenever a screen showing it opens. */
export const featuredQuery = queryOptions({
  queryKey: ['featured-info'],
  queryFn: ({ signal }) => featuredInfo(api, signal),
  staleTime: 5 * 60_000,
  refetchOnMount: 'always',
});

