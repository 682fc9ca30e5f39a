import { z } from 'zod';

/** A page of a list as the bff sends it (envelope.ts `Page`), its rows checked against `item`. */
export function pageSchema<I extends z.ZodType>(item: I) {
  return z.object({
    data: z.array(item),
    total: z.number().int(),
    per_page: z.number().int(),
    current_page: z.number().int(),
    last_page: z.number().int(),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
  });
}

/** The resolution verdict of one placed image (renderer/dpi). */
export const dpiObjectSchema = z.object({
  id: z.string(),
  source_width: z.number(),
  source_height: z.number(),
  placed_width: z.number(),
  placed_height: z.number(),
  effective_dpi: z.number(),
  quality: z.enum(['good', 'normal', 'low']),
});
export type DpiObject = z.infer<typeof dpiObjectSchema>;

/** The answer of a call that did not have the contract's shape; names the call and the first mismatch. */
export class UnexpectedAnswerError extends Error {
  constructor(call: string, error: z.ZodError) {
    const issue = error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'answer';
    super(`Unexpected answer from ${call}: ${where}: ${issue?.message ?? 'invalid'}`);
    this.name = 'UnexpectedAnswerError';
  }
}

/** `value` as `schema` reads it; throws an UnexpectedAnswerError naming `call` when it does not fit. */
export function checked<S extends z.ZodType>(schema: S, call: string, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new UnexpectedAnswerError(call, result.error);
  return result.data;
}
