import { describe, expect, it, vi } from 'vitest';
import { PUT_ATTEMPTS, putWithRetry } from './uploader';

const put = { preSignedUrl: 'http://blob/x', method: 'PUT', fields: null, contentType: 'image/png' } as const;

describe('putWithRetry', () => {
  it('retries a failing PUT up to 3 times with the Content-Type', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockRejectedValueOnce(new TypeError('network'))
      .mockResolvedValueOnce(new Response('', { status: 500 }))
      .mockResolvedValueOnce(new Response('{}', { status: 200 }));
    await putWithRetry(put, new Blob(['a']), { fetch, retryDelay: 0 });
    expect(fetch).toHaveBeenCalledTimes(3);
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.method).toBe('PUT');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('image/png');
  });

  it('posts the policy fields and then the file to an S3 upload', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(new Response(null, { status: 204 }));
    const signed = {
      preSignedUrl: 'http://s3/bucket',
      method: 'POST',
      fields: { key: 'u/1/a.png', policy: 'cG9saWN5', 'Content-Type': 'image/png' },
      contentType: 'image/png',
    } as const;
    await putWithRetry(signed, new Blob(['a']), { fetch, retryDelay: 0 });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('http://s3/bucket');
    expect(init?.method).toBe('POST');
    const form = init?.body as FormData;
    expect([...form.keys()]).toEqual(['key', 'policy', 'Content-Type', 'file']);
    expect(form.get('policy')).toBe('cG9saWN5');
  });

  it('gives up after 3 attempts', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(new Response('', { status: 502 }));
    await expect(putWithRetry(put, new Blob(['a']), { fetch, retryDelay: 0 })).rejects.toThrow('status 502');
    expect(fetch).toHaveBeenCalledTimes(PUT_ATTEMPTS);
  });

  it('does not retry a refused signature or size', async () => {
    for (const status of [400, 403, 413]) {
      const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(new Response('', { status }));
      await expect(putWithRetry(put, new Blob(['a']), { fetch, retryDelay: 0 })).rejects.toThrow();
      expect(fetch).toHaveBeenCalledTimes(1);
    }
  });
});
