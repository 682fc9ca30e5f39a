import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { meQuery } from '../../session/queries';
import { json } from '../../test/answers';
import { renderWithMantine } from '../../test/render';
import { makeUser } from '../../test/users';
import { TeamPage } from './TeamPage';

function show(user = makeUser(), answers: Record<string, unknown[]> = {}) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const path = new URL(input, 'http://localhost').pathname;
      calls.push(path);
      return Promise.resolve(json({ success: true, message: '', errors: [], data: answers[path] ?? [] }));
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

  it('names members\' and invitations\' permissions as people read them, not by their codes', async () => {
    show(makeUser(), {
      '/api/team/members': [{ id: 7, name: 'Tia Team', email: 'tia@example.com', permissions: ['get_orders', 'get_campaigns'] }],
      '/api/team/invitations': [{ id: 3, email: 'new@example.com', seller_name: 'Shop', permissions: ['get_payments'] }],
    });
    expect(await screen.findByText('See orders and customers, See campaigns')).toBeInTheDocument();
    expect(await screen.findByText('new@example.com · See balance and payouts')).toBeInTheDocument();
    expect(screen.queryByText(/get_orders|get_payments/)).not.toBeInTheDocument();
  });

  it('shows the seller the invite form', async () => {
    show();
    expect(await screen.findByRole('button', { name: 'Send invitation' })).toBeInTheDocument();
    expect(screen.queryByTestId('team-not-allowed')).not.toBeInTheDocument();
  });
});
