import type { QueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { logout } from '../api/auth';

/** Storage entries that belong to the signed-in seller and go with the session. */
const SESSION_STORAGE_KEYS = ['dismiss-listing', 'shop', 'state', 'platform'] as const;

/**
 * Signs out: the bff invalidates the token, then the browser forgets it, the seller's storage entries
 * and every cached answer. The local part happens even when the bff cannot be reached.
 */
export async function signOut(queryClient: QueryClient): Promise<void> {
  if (api.tokens.get()) {
    await logout(api).catch(() => undefined);
  }
  api.tokens.clear();
  for (const key of SESSION_STORAGE_KEYS) {
    window.localStorage.removeItem(key);
    window.sessionStorage.removeItem(key);
  }
  queryClient.clear();
}
