import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** A garment colour. */
export interface SystemColor {
  name: string;
  hex_code: string;
}

/** An ISO 3166-1 country. */
export interface Country {
  code: string;
  name: string;
}

/** A shipping location: an ISO 3166-2 subdivision and its kind (state, province, ...). */
export interface Location {
  code: string;
  name: string;
  type: string;
}

/** The shared configuration of spec §3 (GET /api/system-configs). */
export interface SystemConfigs {
  colors: SystemColor[];
  /** The operator's settings by key. */
  configs: Record<string, string>;
  countries: Country[];
  locations: Location[];
  /** The platform's display currency, for ui/src/format/price.ts. */
  currency: { locale: string; code: string };
}

/**
 * The shared configuration, asked once per session: the default layout starts it after login and
 * logout clears the cache, so the next session asks again.
 */
export const systemConfigsQuery = queryOptions({
  queryKey: ['system-configs'],
  queryFn: ({ signal }) => api.get<SystemConfigs>('/system-configs', { signal }),
  staleTime: Infinity,
  gcTime: Infinity,
});

/** The shared configuration for a screen of the signed-in frame (undefined while it loads). */
export function useSystemConfigs(): SystemConfigs | undefined {
  return useQuery(systemConfigsQuery).data;
}
