import { COOKIE_MAX_AGE_S, readCookie, removeCookie, writeCookie } from '../cookies';

/** Cookie holding the session's bearer token (the `auth.` prefix and the local strategy). */
export const TOKEN_COOKIE = 'auth._token.local';

export interface TokenStore {
  get(): string | null;
  set(token: string): void;
  clear(): void;
}

/** Keeps the bearer token in the `auth._token.local` cookie (path /, 7 days, SameSite=Lax). */
export function cookieTokenStore(doc: Document = document): TokenStore {
  return {
    get: () => readCookie(TOKEN_COOKIE, doc) || null,
    set: (token) => writeCookie(TOKEN_COOKIE, token, { maxAgeSeconds: COOKIE_MAX_AGE_S }, doc),
    clear: () => removeCookie(TOKEN_COOKIE, doc),
  };
}
