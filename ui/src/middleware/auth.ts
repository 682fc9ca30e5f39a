import { loginUrlFor } from '../session/redirects';
import type { Middleware } from './registry';

/** Signed-out visitors go to the login page, carrying where they wanted to go. */
export const auth: Middleware = ({ url, user }) =>
  user ? undefined : loginUrlFor(url.pathname, url.search);
