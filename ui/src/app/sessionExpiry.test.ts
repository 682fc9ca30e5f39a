import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ApiClient, type User } from '../api';
import type { TokenStore } from '../api/tokenStore';
import { middlewareLoader } from '../router/middlewareLoader';
import { signOutOnUnauthorized } from './sessionExpiry';

const seller = { id: 1, name: 'Demo Seller', email: 'seller@example.com', roles: ['seller'] } as User;

describe('signOutOnUnauthorized', () => {
  it('sends the user to login, with the page as redirect, when a call made on the page answers 401', async () => {
    let token: string | null = 'revoked-elsewhere';
    const tokens: TokenStore = { get: () => token, set: (t) => void (token = t), clear: () => void (token = null) };
    const fetch = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ success: false, message: 'Unauthenticated.' }), { status: 401 })),
    );
    const client = new ApiClient({ baseUrl: '/api', tokens, fetch });
    const router = createMemoryRouter(
      [
        { path: '/orders', loader: middlewareLoader(['auth'], () => Promise.resolve(token ? seller : null)) },
        { path: '/auth/login' },
      ],
      { initialEntries: ['/orders?page=3'] },
    );
    await vi.waitFor(() => expect(router.state.initialized).toBe(true));
    expect(router.state.location.pathname).toBe('/orders');
    const stop = signOutOnUnauthorized(client, router);

    await expect(client.get('/orders')).rejects.toThrow('Unauthenticated.');

    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(router.state.location.search).toBe('?redirect=%2Forders%3Fpage%3D3');
    expect(token).toBeNull();
    stop();
    router.dispose();
  });
});
