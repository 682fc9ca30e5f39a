import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { meQuery } from '../../session/queries';
import { json } from '../../test/answers';
import { renderWithMantine } from '../../test/render';
import { makeUser } from '../../test/users';
import { TeamPage } from './TeamPage';

function show(user = makeUser()) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const path = new URL(input, 'http://localhost').pathname;
      calls.push(path);
      return Promise.resolve(json({ success: true, message: '', errors: [], data: [] }));
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, user);
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/team']}>
        <TeamPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('TeamPage', { timeout: 20_000 }, () => {
  it('tells a team member with only get_campaigns that the team is not theirs, with no form and no calls', async () => {
    const calls = show(makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true }));
    expect(await screen.findByTestId('team-not-allowed')).toHaveTextContent('Only the account owner manages its team');
    expect(screen.queryByRole('button', { name: 'Send invitation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(calls.filter((p) => p.startsWith('/api/team'))).toEqual([]);
  });

  it('shows the seller the invite form', async () => {
    show();
    expect(await screen.findByRole('button', { name: 'Send invitation' })).toBeInTheDocument();
    expect(screen.queryByTestId('team-not-allowed')).not.toBeInTheDocument();
  });
});
