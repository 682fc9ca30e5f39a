import { notifications } from '@mantine/notifications';
import { queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, type ApiClient } from '../api';
import { authorizedAccounts } from '../api/account';
import { fetchMe } from '../api/auth';
import { meQuery } from './queries';

/**
 * Takes over the session of a switch (or switch back): the new token, the account's user fetched
 * afresh, every cached answer of the other account dropped.
 */
export async function adoptSession(queryClient: QueryClient, token: string): Promise<void> {
  api.tokens.set(token);
  const user = await fetchMe(api);
  // Drop the other account's answers; the user query is updated in place so its observers see the switch.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQuery.queryKey[0] });
  queryClient.setQueryData(meQuery.queryKey, user);
}

/** A call that ends a switched or impersonating session and answers the session to go back to. */
type Return = (api: ApiClient) => Promise<{ message: string; token: string }>;

/**
 * The way back out of another account (Back To My Account, Back to admin): the returned session is
 * adopted and the app shows its home, or `failure` is said.
 */
export function useAccountReturn(): (back: Return, failure: string) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (back, failure) => {
    try {
      const { message, token } = await back(api);
      await adoptSession(queryClient, token);
      notifications.show({ color: 'green', message });
      await navigate('/', { replace: true });
    } catch {
      notifications.show({ color: 'red', message: failure });
    }
  };
}

const NEVER_SHOW_KEY = 'account-modal-never-show';

/** Whether the user chose never to see the select-account modal after login again. */
export function accountModalDismissed(storage: Storage = window.localStorage): boolean {
  return storage.getItem(NEVER_SHOW_KEY) === '1';
}

export function dismissAccountModal(storage: Storage = window.localStorage): void {
  storage.setItem(NEVER_SHOW_KEY, '1');
}

/** The seller accounts the user may switch into. */
export const authorizedAccountsQuery = queryOptions({
  queryKey: ['authorized-accounts'],
  queryFn: ({ signal }) => authorizedAccounts(api, signal),
  staleTime: 60_000,
});
