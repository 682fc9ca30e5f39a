import { z } from 'zod';
import type { ApiClient } from './ApiClient';
import { checked } from './schema';

/** A featured article (bff/featured); `content` is HTML the bff has sanitized. */
export const featuredArticleSchema = z.object({
  id: z.number().int(),
  subject: z.string(),
  banner: z.string(),
  content: z.string(),
  /** Opens in a new tab when set; otherwise the article opens in the modal. */
  link: z.string(),
  position: z.number().int(),
  active: z.boolean(),
  updated_at: z.string(),
});
export type FeaturedArticle = z.infer<typeof featuredArticleSchema>;

/** GET /api/public/featured-info: the active articles in carousel order. */
export async function featuredInfo(api: ApiClient, signal?: AbortSignal): Promise<FeaturedArticle[]> {
  return checked(z.array(featuredArticleSchema), 'GET /public/featured-info', await api.get<unknown>('/public/featured-info', { signal }));
}
