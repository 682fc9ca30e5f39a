import type { LoginVariant } from '../api/auth';

const DESIGNER_PARAM = 'designer';

function designerHost(hostname: string): boolean {
  return hostname.includes('designer');
}

/** The designer login is used when the hostname contains "designer" or the query has `designer`. */
export function loginVariant(hostname: string, search: URLSearchParams): LoginVariant {
  return designerHost(hostname) || search.has(DESIGNER_PARAM) ? 'designer' : 'seller';
}

/**
 * The query of the other login variant, keeping the rest (the `redirect`); null on a designer host,
 * where the designer login is the only one.
 */
export function otherVariantSearch(hostname: string, search: URLSearchParams): URLSearchParams | null {
  if (designerHost(hostname)) return null;
  const other = new URLSearchParams(search);
  if (other.has(DESIGNER_PARAM)) other.delete(DESIGNER_PARAM);
  else other.set(DESIGNER_PARAM, '1');
  return other;
}
