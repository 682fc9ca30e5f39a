import { z } from 'zod';

/** The login form's rules, worded like the bff's validation messages. */
export const loginSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, { error: 'The email field is required.' })
    .pipe(z.email({ error: 'The email must be a valid email address.' })),
  password: z.string().min(1, { error: 'The password field is required.' }),
});
