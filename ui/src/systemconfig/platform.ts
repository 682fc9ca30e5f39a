import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../api';

/** Which brand a host carries (system configs brand.second.hosts, brand.seller_centre.hosts). */
export type BrandKind = 'default' | 'second' | 'seller_centre';

/** The branding of the host the app is served on. */
export interface Brand {
  kind: BrandKind;
  /** The name shown beside the logo. */
  name: string;
}

/** The default brand, shown until the bff has answered. */
export const DEFAULT_BRAND: Brand = { kind: 'default', name: 'Pressroom' };

/** What the bff tells anyone, signed in or not, about the platform (GET /api/public/platform). */
export interface PlatformStatus {
  /** The operator's maintenance switch (system config `maintenance`). */
  maintenance: boolean;
  brand: Brand;
}

/** The platform status, re-asked at most once a minute by navigation. */
export const platformQuery = queryOptions({
  queryKey: ['platform'],
  queryFn: ({ signal }) => api.get<PlatformStatus>('/public/platform', { signal }),
  staleTime: 60_000,
});

/** Whether the platform is in maintenance, for the maintenance middleware. */
export async function loadMaintenance(queryClient: QueryClient): Promise<boolean> {
  const status = await queryClient.ensureQueryData({ ...platformQuery, revalidateIfStale: true });
  return status.maintenance;
}

/** The brand of this host, for the logo of every layout (the default brand while loading or on failure). */
export function useBrand(): Brand {
  return useQuery(platformQuery).data?.brand ?? DEFAULT_BRAND;
}
