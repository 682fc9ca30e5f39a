import { describe, expect, it, vi } from 'vitest';
import { PUT_ATTEMPTS, putWithRetry } from './uploader';

describe('putWithRetry', () => {
  it('retries a failing PUT up to 3 times with the Content-Type', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockRejectedValueOnce(new TypeError('network'))
      .mockResolvedValueOnce(new Response('', { status: 500 }))
      .mockResolvedValueOnce(new Response('{}', { status: 200 }));
    await putWithRetry('http://blob/x', new Blob(['a']), 'image/png', { fetch, retryDelay: 0 });
    expect(fetch).toHaveBeenCalledTimes(3);
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.method).toBe('PUT');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('image/png');
  });

  it('gives up after 3 attempts', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(new Response('', { status: 502 }));
    await expect(putWithRetry('http://blob/x', new Blob(['a']), 'image/png', { fetch, retryDelay: 0 })).rejects.toThrow(
      'status 502',
    );
    expect(fetch).toHaveBeenCalledTimes(PUT_ATTEMPTS);
  });

  it('does not retry a refused signature', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(new Response('', { status: 403 }));
    await expect(putWithRetry('http://blob/x', new Blob(['a']), 'image/png', { fetch, retryDelay: 0 })).rejects.toThrow();
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
