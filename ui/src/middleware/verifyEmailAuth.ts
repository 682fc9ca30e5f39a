import { mustVerifyEmail } from '../access';
import type { Middleware } from './registry';

export const VERIFY_EMAIL_PATH = '/auth/verify-email';

/** Users the e-mail verification rule applies to go to /auth/verify-email. */
export const verifyEmailAuth: Middleware = ({ user }) =>
  user && mustVerifyEmail(user) ? VERIFY_EMAIL_PATH : undefined;
