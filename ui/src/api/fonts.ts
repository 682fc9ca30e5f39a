import { z } from 'zod';
import type { ApiClient } from './ApiClient';
import type { Envelope } from './envelope';
import { checked } from './schema';

/** A font of the seller's list (bff/fonts): a platform font or one the seller uploaded. */
const fontSchema = z.object({
  id: z.number().int(),
  family: z.string(),
  style: z.string(),
  full_name: z.string(),
  weight: z.number().int(),
  italic: z.boolean(),
  /** The format as uploaded: ttf, otf, woff or woff2. */
  format: z.string(),
  size: z.number().int(),
  platform: z.boolean(),
  /** The key a text's fontUrl names. */
  font_url: z.string(),
  /** Where the browser loads the file. */
  url: z.string(),
  created_at: z.string(),
});
export type Font = z.infer<typeof fontSchema>;

/** The query key of the seller's font list: the fonts page and the editor's picker share it. */
export const FONTS_KEY = ['seller-fonts'];

/** The platform fonts, then the seller's own. */
export async function listFonts(api: ApiClient, signal?: AbortSignal): Promise<Font[]> {
  return checked(z.array(fontSchema), 'GET /seller/fonts', await api.get('/seller/fonts', { signal }));
}

/** Uploads a TTF, OTF, WOFF or WOFF2 file; the bff reads and checks it, and answers the font or a refusal (field file). */
export async function uploadFont(api: ApiClient, file: File): Promise<{ message: string; font: Font }> {
  const form = new FormData();
  form.append('file', file);
  const answer = await api.send<Envelope<unknown>>('POST', '/seller/fonts', { body: form });
  return { message: answer.message, font: checked(fontSchema, 'POST /seller/fonts', answer.data) };
}

/** Deletes one of the seller's fonts; answers the message to show. */
export async function deleteFont(api: ApiClient, id: number): Promise<string> {
  return (await api.send<Envelope<unknown>>('DELETE', `/seller/fonts/${id}`)).message;
}
