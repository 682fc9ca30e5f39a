import { notifications } from '@mantine/notifications';
import type { DataRouter } from 'react-router';
import type { ApiClient } from '../api';

/**
 * When the bff answers 401 to a call made while the user is on a page, the client has already
 * dropped the token; re-running the route guards sends the user to the login page with a redirect
 * back (and drops the cached user). During a navigation the guards are running anyway and handle
 * it themselves.
 */
export function signOutOnUnauthorized(api: ApiClient, router: DataRouter): () => void {
  return api.onUnauthorized(() => {
    if (!router.state.initialized || router.state.navigation.state !== 'idle') return;
    notifications.show({ color: 'yellow', title: 'Signed out', message: 'Your session has ended. Please sign in again.' });
    void router.revalidate();
  });
}
