import { isAdmin, isDesigner, isImpersonated, type AccessUser } from '../access/rules';

/** Where the login, logout and home pages live. */
export const LOGIN_PATH = '/auth/login';
export const LOGOUT_PATH = '/auth/logout';
export const HOME_PATH = '/';

/** The designer login, where designers and admins sign in. */
export const STAFF_LOGIN_PATH = `${LOGIN_PATH}?designer`;

/**
 * Where signing out lands: the designer login for designers, admins and an admin who was acting as a
 * seller (their way back in), the seller login for everyone else.
 */
export function loginAfterLogout(user: AccessUser | null | undefined): string {
  if (user && (isDesigner(user) || isAdmin(user) || isImpersonated(user))) return STAFF_LOGIN_PATH;
  return LOGIN_PATH;
}

/** Pages that send the user to login without a `redirect` parameter. */
const paramFreeOrigins = new Set(['/', '/login']);

/** The login URL for a visit to `pathname + search` by someone who is not signed in. */
export function loginUrlFor(pathname: string, search = ''): string {
  if (paramFreeOrigins.has(pathname)) return LOGIN_PATH;
  const params = new URLSearchParams({ redirect: `${pathname}${search}` });
  return `${LOGIN_PATH}?${params.toString()}`;
}

/**
 * The `redirect` parameter when it is safe to follow: a same-origin path starting with a single "/".
 * Absolute URLs, protocol-relative ("//host") and backslash or control-character tricks that a URL parser
 * turns into another origin are refused.
 */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  const base = 'http://pressroom.invalid';
  const resolved = new URL(value, base);
  if (resolved.origin !== base) return null;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}

/** Where to go after signing in: the safe `redirect` parameter, else home. */
export function afterLoginPath(search: URLSearchParams): string {
  return safeRedirect(search.get('redirect')) ?? HOME_PATH;
}
