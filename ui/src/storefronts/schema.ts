import { z } from 'zod';

/** A store's address, as the bff accepts it (bff/stores rules). */
export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MESSAGE = 'The address may hold lower-case letters, digits and single hyphens between them.';
const COLOR = /^#[0-9a-fA-F]{6}$/;

/** The store form, worded like the bff's messages. */
export const storeSchema = z.object({
  name: z.string().trim().min(1, { error: 'The name is required.' }).max(100, { error: 'The name may not be longer than 100 characters.' }),
  slug: z
    .string()
    .trim()
    .min(3, { error: 'The address must be 3 to 40 characters long.' })
    .max(40, { error: 'The address must be 3 to 40 characters long.' })
    .regex(SLUG, { error: SLUG_MESSAGE }),
  primary_color: z.string().regex(COLOR, { error: 'Choose a colour like #1f2a44.' }),
  accent_color: z.string().regex(COLOR, { error: 'Choose a colour like #1f2a44.' }),
  currency: z.enum(['USD', 'EUR'], { error: 'The currency must be EUR or USD.' }),
  target_market: z.enum(['United States', 'Canada', 'Europe', 'World Wide'], { error: 'Choose a target market.' }),
  review_setting: z.enum(['disable', 'enable-only-store', 'enable-share-review'], { error: 'Choose a review setting.' }),
  is_open: z.boolean(),
});
export type StoreValues = z.infer<typeof storeSchema>;

/** A margin in the store's currency: at most two decimals, not negative. */
export const MARGIN = /^\d{1,7}(\.\d{1,2})?$/;
