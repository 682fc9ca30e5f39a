/**
 * Where buyers reach a store: the storefront's path form on the storefront's address
 * (VITE_STOREFRONT_URL, default http://127.0.0.1:8082), which works on every machine.
 */
export function shopURL(slug: string): string {
  const base = (import.meta.env.VITE_STOREFRONT_URL ?? 'http://127.0.0.1:8082').replace(/\/+$/, '');
  return `${base}/s/${slug}/`;
}
