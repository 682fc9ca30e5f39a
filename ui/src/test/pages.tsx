import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { meQuery } from '../session/queries';
import { renderWithMantine } from './render';
import { makeUser } from './users';

/** A fetch call a page made. */
export interface Call {
  url: URL;
  init?: RequestInit;
}

/**
 * Renders `routes` (path → page) at `path` for a signed-in `user` (a seller at UTC+2, time zone Etc/GMT-2, unless told), answering each
 * fetch with `answer`; the calls are recorded in the array returned. Undo with `vi.unstubAllGlobals()`.
 */
export function showPages(
  path: string,
  routes: Record<string, ReactElement>,
  answer: (url: URL, init?: RequestInit) => Promise<Response>,
  user = makeUser({ utc_offset: 2, timezone: 'Etc/GMT-2' }),
): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      calls.push({ url, init });
      return answer(url, init);
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, user);
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          {Object.entries(routes).map(([p, element]) => (
            <Route key={p} path={p} element={element} />
          ))}
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return calls;
}

/** One page of the paging envelope holding `data`. */
export const onePage = (data: unknown[]) =>
  new Response(JSON.stringify({ data, total: data.length, per_page: 15, current_page: 1, last_page: 1, from: 1, to: data.length }), {
    headers: { 'Content-Type': 'application/json' },
  });
