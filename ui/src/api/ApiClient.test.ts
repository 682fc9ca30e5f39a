import { describe, expect, it, vi } from 'vitest';
import { ApiClient, CREATE_ATTEMPTS } from './ApiClient';
import { createCampaign } from './campaigns';
import { ApiError } from './ApiError';
import type { TokenStore } from './tokenStore';

function memoryTokens(initial: string | null = null): TokenStore {
  let token = initial;
  return { get: () => token, set: (value) => void (token = value), clear: () => void (token = null) };
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function clientAnswering(response: Response | Error, tokens = memoryTokens()) {
  const fetch = vi.fn<typeof globalThis.fetch>(() =>
    response instanceof Error ? Promise.reject(response) : Promise.resolve(response),
  );
  return { client: new ApiClient({ baseUrl: '/api/', tokens, fetch }), fetch, tokens };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('ApiClient', () => {
  it('returns the envelope data and sends JSON with the bearer token', async () => {
    const { client, fetch } = clientAnswering(
      jsonResponse(200, { success: true, message: '', data: { access_token: 'abc' }, errors: [] }),
      memoryTokens('secret-token'),
    );

    const data = await client.post<{ access_token: string }>('/auth/seller/login', { email: 'a@b.c' });

    expect(data).toEqual({ access_token: 'abc' });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/auth/seller/login');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"email":"a@b.c"}');
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('Bearer secret-token');
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('sends no Authorization header without a token and encodes the query', async () => {
    const { client, fetch } = clientAnswering(jsonResponse(200, { success: true, data: null }));

    await client.get('/orders', { query: { q: 'red shirt', page: 2, status: undefined, per_page: null } });

    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/orders?q=red+shirt&page=2');
    expect(new Headers(init?.headers).has('Authorization')).toBe(false);
  });

  it('reads a list page as {data, total, per_page, current_page, last_page, from, to}', async () => {
    const page = { data: [{ id: 1 }], total: 1, per_page: 15, current_page: 1, last_page: 1, from: 1, to: 1 };
    const { client } = clientAnswering(jsonResponse(200, page));

    await expect(client.getPage<{ id: number }>('/orders')).resolves.toEqual(page);
  });

  describe('error extraction', () => {
    it('takes the first errors[].message and keeps the field errors', async () => {
      const { client } = clientAnswering(
        jsonResponse(422, {
          success: false,
          message: 'The given data was invalid.',
          errors: [
            { field: 'email', message: 'The email field is required.' },
            { field: 'password', message: 'The password field is required.' },
          ],
        }),
      );

      const error = await failure(client.post('/auth/seller/login', {}));

      expect(error.status).toBe(422);
      expect(error.message).toBe('The email field is required.');
      expect(error.fieldErrors).toHaveLength(2);
      expect(error.fieldMessage('password')).toBe('The password field is required.');
    });

    it('falls back to message when there are no errors', async () => {
      const { client } = clientAnswering(
        jsonResponse(429, { success: false, message: 'Too many login attempts. Please try again in 60 seconds.' }),
      );

      const error = await failure(client.post('/auth/seller/login', {}, { credentialsCheck: true }));

      expect(error.status).toBe(429);
      expect(error.message).toBe('Too many login attempts. Please try again in 60 seconds.');
    });

    it('falls back to the transport message when the body is not an envelope', async () => {
      const { client } = clientAnswering(new Response('<html>Bad gateway</html>', { status: 502 }));

      const error = await failure(client.get('/me'));

      expect(error.status).toBe(502);
      expect(error.message).toBe('Request failed with status code 502');
    });

    it('treats success:false in a 200 answer as an error', async () => {
      const { client } = clientAnswering(jsonResponse(200, { success: false, message: 'Cannot switch to new account.' }));

      const error = await failure(client.post('/seller/switch-account', { seller_id: 1 }));

      expect(error.message).toBe('Cannot switch to new account.');
    });

    it('reports a fetch failure as status 500 with the raw error message', async () => {
      const { client } = clientAnswering(new TypeError('Failed to fetch'));

      const error = await failure(client.get('/me'));

      expect(error.status).toBe(500);
      expect(error.message).toBe('Failed to fetch');
    });
  });

  describe('401', () => {
    it('clears the token and tells the listeners the session is gone', async () => {
      const { client, tokens } = clientAnswering(
        jsonResponse(401, { success: false, message: 'Unauthenticated.' }),
        memoryTokens('expired'),
      );
      const listener = vi.fn();
      client.onUnauthorized(listener);

      const error = await failure(client.get('/me'));

      expect(error.message).toBe('Unauthenticated.');
      expect(tokens.get()).toBeNull();
      expect(listener).toHaveBeenCalledOnce();
    });

    it('leaves the session alone when the 401 answers a login attempt', async () => {
      const message = 'These credentials do not match our records.';
      const { client, tokens } = clientAnswering(
        jsonResponse(401, { success: false, message, errors: [{ field: 'email', message }] }),
        memoryTokens('current'),
      );
      const listener = vi.fn();
      client.onUnauthorized(listener);

      const error = await failure(client.post('/auth/seller/login', {}, { credentialsCheck: true }));

      expect(error.message).toBe(message);
      expect(tokens.get()).toBe('current');
      expect(listener).not.toHaveBeenCalled();
    });

    it('stops notifying a listener once it unsubscribes', async () => {
      const { client } = clientAnswering(jsonResponse(401, { success: false, message: 'Unauthenticated.' }));
      const listener = vi.fn();
      client.onUnauthorized(listener)();

      await failure(client.get('/me'));

      expect(listener).not.toHaveBeenCalled();
    });
  });
});

describe('ApiClient creates', () => {
  const created = () => jsonResponse(200, { success: true, message: '', data: { id: 7 }, errors: [] });

  it('send the Idempotency-Key and send it again, unchanged, after a failed connection', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(created());
    const client = new ApiClient({ baseUrl: '/api', tokens: memoryTokens('t'), fetch });

    const data = await client.post('/seller/campaigns', { name: 'A' }, { idempotencyKey: 'key-1' });

    expect(data).toEqual({ id: 7 });
    expect(fetch).toHaveBeenCalledTimes(2);
    for (const [, init] of fetch.mock.calls) expect(new Headers(init?.headers).get('Idempotency-Key')).toBe('key-1');
  });

  it('give up after CREATE_ATTEMPTS failed connections', async () => {
    const { client, fetch } = clientAnswering(new TypeError('Failed to fetch'));
    await failure(client.post('/seller/campaigns', {}, { idempotencyKey: 'key-1' }));
    expect(fetch).toHaveBeenCalledTimes(CREATE_ATTEMPTS);
  });

  it('never send a POST without a key twice', async () => {
    const { client, fetch } = clientAnswering(new TypeError('Failed to fetch'));
    await failure(client.post('/seller/campaigns', {}));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(new Headers(fetch.mock.calls[0]![1]?.headers).has('Idempotency-Key')).toBe(false);
  });

  it('make a fresh key per user action', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(() => Promise.resolve(created()));
    const client = new ApiClient({ baseUrl: '/api', tokens: memoryTokens('t'), fetch });
    await createCampaign(client, { name: 'A', kind: 'regular', template_ids: [1] }).catch(() => undefined);
    await createCampaign(client, { name: 'A', kind: 'regular', template_ids: [1] }).catch(() => undefined);
    const keys = fetch.mock.calls.map(([, init]) => new Headers(init?.headers).get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
