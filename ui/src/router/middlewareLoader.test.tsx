import { screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../api';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { renderWithMantine } from '../test/render';
import { DEFAULT_BRAND, platformQuery } from '../systemconfig/platform';
import { middlewareLoader } from './middlewareLoader';

const seller = { id: 1, name: 'Demo Seller', email: 'seller@example.com', roles: ['seller'] } as User;

function renderAt(path: string, names: string[], loadUser: () => Promise<User | null>) {
  const router = createMemoryRouter(
    [
      {
        path: '/orders',
        loader: middlewareLoader(names, loadUser),
        element: <p>Orders page</p>,
        hydrateFallbackElement: <p>Loading</p>,
        errorElement: <RouteErrorPage />,
      },
      { path: '/auth/login', element: <p>Login page</p> },
    ],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient();
  queryClient.setQueryData(platformQuery.queryKey, { maintenance: false, brand: DEFAULT_BRAND });
  renderWithMantine(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('middlewareLoader', () => {
  it('renders the 500 page "Unknown middleware" for a guard nobody registered, without loading the user', async () => {
    const loadUser = vi.fn(() => Promise.resolve(seller));
    renderAt('/orders', ['auth', 'no-such-guard'], loadUser);

    expect(await screen.findByText('Unknown middleware')).toBeInTheDocument();
    expect(screen.getByTestId('error-status')).toHaveTextContent('500');
    expect(screen.getByText(/no-such-guard/)).toBeInTheDocument();
    expect(screen.queryByText('Orders page')).not.toBeInTheDocument();
    expect(loadUser).not.toHaveBeenCalled();
  });

  it('redirects a signed-out visitor to login with the redirect parameter', async () => {
    const router = renderAt('/orders?page=2', ['auth'], () => Promise.resolve(null));

    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(router.state.location.search).toBe('?redirect=%2Forders%3Fpage%3D2');
  });

  it('renders the route for a signed-in user', async () => {
    renderAt('/orders', ['auth'], () => Promise.resolve(seller));

    expect(await screen.findByText('Orders page')).toBeInTheDocument();
  });

  it('takes the maintenance switch loader exactly with the maintenance guard', () => {
    const loadUser = () => Promise.resolve(seller);
    const loadMaintenance = () => Promise.resolve(false);
    expect(() => middlewareLoader(['maintenance', 'auth'], loadUser)).toThrow(/loadMaintenance/);
    expect(() => middlewareLoader(['auth'], loadUser, loadMaintenance)).toThrow(/loadMaintenance/);
    expect(() => middlewareLoader(['maintenance', 'auth'], loadUser, loadMaintenance)).not.toThrow();
  });
});
