import { z } from 'zod';

const email = z
  .string()
  .trim()
  .min(1, { error: 'The email field is required.' })
  .pipe(z.email({ error: 'The email must be a valid email address.' }));

const password = z
  .string()
  .min(1, { error: 'The password field is required.' })
  .min(8, { error: 'The password must be at least 8 characters.' })
  .max(72, { error: 'The password must not be longer than 72 characters.' });

function confirmed<T extends { password: string; password_confirmation: string }>(schema: z.ZodType<T>) {
  return schema.refine((v) => v.password === v.password_confirmation, {
    error: 'The password confirmation does not match.',
    path: ['password_confirmation'],
  });
}

/** The forms' rules, worded like the bff's validation messages. */
export const registerSchema = confirmed(
  z.object({
    name: z.string().trim().min(1, { error: 'The name field is required.' }).max(120),
    email,
    password,
    password_confirmation: z.string(),
  }),
);

export const forgotSchema = z.object({ email });

export const resetSchema = confirmed(z.object({ password, password_confirmation: z.string() }));

const currentPassword = z.string().min(1, { error: 'The current password field is required.' });

export const changePasswordSchema = confirmed(
  z.object({
    current_password: currentPassword,
    password,
    password_confirmation: z.string(),
  }),
);

export const changeEmailSchema = z.object({ email, current_password: currentPassword });
