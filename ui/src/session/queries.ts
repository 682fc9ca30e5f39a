import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, isApiError, type User } from '../api';
import { fetchMe } from '../api/auth';

export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: ({ signal }) => fetchMe(api, signal),
  staleTime: 60_000,
});

/**
 * The signed-in user, or null when there is no token or the bff no longer accepts it
 * (the client has then cleared the token; a 403 from /me means the account was suspended, and the
 * token is cleared too, so the login page tells why on the next try). Other failures propagate to
 * the error page.
 * A cached user is answered at once and re-checked in the background when stale, so a token
 * revoked elsewhere ends the session on the next navigation after that check.
 */
export async function loadSessionUser(queryClient: QueryClient): Promise<User | null> {
  if (!api.tokens.get()) {
    queryClient.removeQueries({ queryKey: meQuery.queryKey });
    return null;
  }
  try {
    return await queryClient.ensureQueryData({ ...meQuery, revalidateIfStale: true });
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 403)) {
      if (error.status === 403) api.tokens.clear();
      queryClient.removeQueries({ queryKey: meQuery.queryKey });
      return null;
    }
    throw error;
  }
}
