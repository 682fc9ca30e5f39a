import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../api';
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
