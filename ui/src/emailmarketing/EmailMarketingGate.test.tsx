import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { User } from '../api';
import { meQuery } from '../session/queries';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { EmailMarketingGate } from './EmailMarketingGate';

function show(user: User) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, user);
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <EmailMarketingGate>
          <p>the campaigns</p>
        </EmailMarketingGate>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('EmailMarketingGate', () => {
  it('opens the area for a seller with the feature', () => {
    show(makeUser({ tags: ['email marketing'] }));
    expect(screen.getByText('the campaigns')).toBeInTheDocument();
  });

  it('tells a seller without the feature what it does and how to get it, not a bare 403', () => {
    show(makeUser());
    const page = screen.getByTestId('email-marketing-locked');
    expect(page).toHaveTextContent('Send e-mail campaigns from your own store domain');
    expect(screen.getByTestId('needs-feature')).toHaveTextContent('ask Pressroom support to turn on e-mail marketing');
    expect(screen.queryByTestId('needs-permission')).not.toBeInTheDocument();
    expect(page).not.toHaveTextContent('403');
    expect(screen.queryByText('the campaigns')).not.toBeInTheDocument();
  });

  it('tells a team member which permission the owner must give, in words', () => {
    show(makeUser({ roles: ['team'], tags: ['email marketing'], permissions: ['get_campaigns'], access_user: true }));
    expect(screen.getByTestId('needs-permission')).toHaveTextContent('“Edit campaigns, pricing and email marketing”');
    expect(screen.queryByTestId('needs-feature')).not.toBeInTheDocument();
  });
});
