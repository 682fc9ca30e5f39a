import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../api';
import { checked } from '../api/schema';

/** A garment colour. */
const systemColorSchema = z.object({ name: z.string(), hex_code: z.string() });
export type SystemColor = z.infer<typeof systemColorSchema>;

/** An ISO 3166-1 country. */
const countrySchema = z.object({ code: z.string(), name: z.string() });
export type Country = z.infer<typeof countrySchema>;

/** A shipping location: an ISO 3166-2 subdivision and its kind (state, province, ...). */
const locationSchema = z.object({ code: z.string(), name: z.string(), type: z.string() });
export type Location = z.infer<typeof locationSchema>;

/** The shared configuration (GET /api/system-configs). */
const systemConfigsSchema = z.object({
  colors: z.array(systemColorSchema),
  /** The operator's settings by key. */
  configs: z.record(z.string(), z.string()),
  countries: z.array(countrySchema),
  locations: z.array(locationSchema),
  /** The platform's display currency, for ui/src/format/price.ts. */
  currency: z.object({ locale: z.string(), code: z.string() }),
});
export type SystemConfigs = z.infer<typeof systemConfigsSchema>;

/**
 * The shared configuration, asked once per session: the default layout starts it after login and
 * logout clears the cache, so the next session asks again.
 */
export const systemConfigsQuery = queryOptions({
  queryKey: ['system-configs'],
  queryFn: async ({ signal }): Promise<SystemConfigs> =>
    checked(systemConfigsSchema, 'GET /system-configs', await api.get<unknown>('/system-configs', { signal })),
  staleTime: Infinity,
  gcTime: Infinity,
});
