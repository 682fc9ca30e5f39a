/** The lifetime of the app's lasting cookies, 604800 s (7 days). */
export const COOKIE_MAX_AGE_S = 604_800;

export interface CookieOptions {
  /** Lifetime in seconds; omitted means a session cookie. */
  maxAgeSeconds?: number;
}

/** The decoded value of cookie `name`, or undefined when it is not set. */
export function readCookie(name: string, doc: Document = document): string | undefined {
  for (const pair of doc.cookie.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0) continue;
    if (pair.slice(0, separator).trim() !== name) continue;
    const raw = pair.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** Sets a first-party cookie on path / with SameSite=Lax (and Secure when served over https). */
export function writeCookie(name: string, value: string, options: CookieOptions = {}, doc: Document = document): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'path=/', 'SameSite=Lax'];
  if (options.maxAgeSeconds !== undefined) parts.push(`max-age=${options.maxAgeSeconds}`);
  if (doc.location?.protocol === 'https:') parts.push('Secure');
  doc.cookie = parts.join('; ');
}

export function removeCookie(name: string, doc: Document = document): void {
  writeCookie(name, '', { maxAgeSeconds: 0 }, doc);
}
