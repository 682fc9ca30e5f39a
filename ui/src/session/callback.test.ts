import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../api';
import type { TokenStore } from '../api/tokenStore';
import { sellerCentreConfig } from '../middleware/customPayment';
import { exchangeCallback, handOff } from './callback';

function memoryTokens(initial: string | null = null): TokenStore {
  let token = initial;
  return { get: () => token, set: (value) => void (token = value), clear: () => void (token = null) };
}

function answering(status: number, data: unknown, tokens: TokenStore) {
  const fetch = vi.fn<typeof globalThis.fetch>(() =>
    Promise.resolve(
      new Response(JSON.stringify({ success: status === 200, message: status === 200 ? '' : 'This sign-in link is invalid or has expired. Please sign in.', data, errors: [] }), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
    ),
  );
  return { client: new ApiClient({ baseUrl: '/api/', tokens, fetch }), fetch };
}

const config = sellerCentreConfig({ VITE_SELLER_CENTRE_URL: 'https://seller.example.com' } as unknown as ImportMetaEnv);

describe('seller-centre hand-off', () => {
  it('trades the token for a one-time code, forgets the token and sends only the code on', async () => {
    const tokens = memoryTokens('secret-token');
    const { client, fetch } = answering(200, { code: 'one-time', expires_in: 60 }, tokens);
    const target = await handOff(client, config, new URL('https://dash.example.com/auth/handoff?redirect=%2Forders'));
    expect(target).toBe('https://seller.example.com/auth/callback?redirect=%2Forders&code=one-time');
    expect(target).not.toContain('secret-token');
    expect(tokens.get()).toBeNull();
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/auth/handoff');
  });

  it('exchanges the callback code by POST for a session and follows only a same-origin redirect', async () => {
    const tokens = memoryTokens();
    const { client, fetch } = answering(200, { access_token: 'new-token', token_type: 'Bearer', expires_in: 604800 }, tokens);
    expect(await exchangeCallback(client, new URL('https://seller.example.com/auth/callback?code=one-time&redirect=%2Forders'))).toBe('/orders');
    expect(tokens.get()).toBe('new-token');
    const [path, init] = fetch.mock.calls[0] ?? [];
    expect(path).toBe('/api/auth/handoff/exchange');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ code: 'one-time' });
    expect(await exchangeCallback(client, new URL('https://seller.example.com/auth/callback?code=x&redirect=https%3A%2F%2Fevil.example'))).toBe('/');
  });

  it('ignores a token in the address and sends a used code to the login page', async () => {
    const tokens = memoryTokens();
    const { client, fetch } = answering(422, null, tokens);
    expect(await exchangeCallback(client, new URL('https://seller.example.com/auth/callback?token=someone-elses'))).toBe('/auth/login');
    expect(fetch).not.toHaveBeenCalled();
    expect(await exchangeCallback(client, new URL('https://seller.example.com/auth/callback?code=used'))).toBe('/auth/login');
    expect(tokens.get()).toBeNull();
  });
});
