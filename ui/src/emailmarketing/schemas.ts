import { z } from 'zod';

/** A mailbox name the bff accepts: dot-separated atoms of letters, digits and _ + - (bff/emailmarketing). */
export const MAILBOX = /^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*$/;

export const USERNAME_MESSAGE =
  'The username must be a valid mailbox name: letters, digits and . _ + - (no leading, trailing or double dots), at most 64 characters.';

/** The Klaviyo connection form, worded like the bff's messages. */
export const klaviyoSchema = z.object({
  private_key: z.string().trim().min(1, { error: 'The private key field is required.' }),
  list_id: z.string().trim().min(1, { error: 'The list id field is required.' }),
});
export type KlaviyoValues = z.infer<typeof klaviyoSchema>;

const username = z.string().trim().max(64, { error: USERNAME_MESSAGE }).regex(MAILBOX, { error: USERNAME_MESSAGE });
const name = z
  .string()
  .trim()
  .min(1, { error: 'The name field is required.' })
  .max(100, { error: 'The name may not be greater than 100 characters.' });

/** Sender update (username and name). */
export const senderUpdateSchema = z.object({ username, name });
export type SenderUpdateValues = z.infer<typeof senderUpdateSchema>;

/** Sender create (store_domain_id, username and name); the domain comes from a select as text. */
export const senderCreateSchema = senderUpdateSchema.extend({
  store_domain_id: z.string().min(1, { error: 'The store domain field is required.' }),
});
export type SenderCreateValues = z.infer<typeof senderCreateSchema>;

/** How far a sync run is, as a whole percentage. */
export function syncPercent(run: { done: number; total: number; status: string }): number {
  if (run.status === 'done') return 100;
  if (run.total <= 0) return 0;
  return Math.min(100, Math.floor((run.done / run.total) * 100));
}
