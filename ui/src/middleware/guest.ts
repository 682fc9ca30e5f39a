import { afterLoginPath } from '../session/redirects';
import type { Middleware } from './registry';

/** Pages for signed-out visitors (login): a signed-in user goes where the login would have sent them. */
export const guest: Middleware = ({ url, user }) => (user ? afterLoginPath(url.searchParams) : undefined);
