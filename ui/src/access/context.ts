import type { AccessContext } from './menu';

/** Where the app runs, for the access rules: the dashboard host and the deployment's capabilities. */
export function currentAccessContext(): AccessContext {
  return { host: window.location.host, bulk_v3: import.meta.env.VITE_BULK_V3 === 'true' };
}
