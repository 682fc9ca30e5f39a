import type { AccessContext } from './menu';

/**
 * Where the app runs, for the access rules: the dashboard host and the deployment's capabilities. Bulk v3 is
 * Pressroom's own server-side bulk (worker/bulk), so it is on unless the build turns it off.
 */
export function currentAccessContext(): AccessContext {
  return { host: window.location.host, bulk_v3: import.meta.env.VITE_BULK_V3 !== 'false' };
}
