import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from './ApiClient';
import { revisionManifest, revisionTilesUrl } from './review';

describe('comparing revisions of a print file', () => {
  it('derives the tiles path of another revision from the current one', () => {
    expect(revisionTilesUrl('/design-orders/items/7/tiles/3/', 1)).toBe('/design-orders/items/7/tiles/1/');
    expect(revisionTilesUrl('/design-orders/items/12/tiles/12/', 11)).toBe('/design-orders/items/12/tiles/11/');
  });

  it("reads a revision's manifest from its tiles path", async () => {
    const manifest = { width: 13500, height: 6750, tile_size: 512, levels: 15, format: 'webp' };
    const urls: string[] = [];
    const fetch = vi.fn<typeof globalThis.fetch>((input) => {
      urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      return Promise.resolve(
        new Response(JSON.stringify({ success: true, message: '', data: manifest, errors: [] }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
      );
    });
    const client = new ApiClient({ baseUrl: '/api', tokens: { get: () => 't', set: () => undefined, clear: () => undefined }, fetch });
    expect(await revisionManifest(client, 7, 2)).toEqual(manifest);
    expect(urls).toEqual(['/api/design-orders/items/7/tiles/2/manifest']);
  });

  it('names the call and the field when a manifest does not have the contract shape', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(() =>
      Promise.resolve(
        new Response(JSON.stringify({ success: true, message: '', data: { width: 'wide' }, errors: [] }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
      ),
    );
    const client = new ApiClient({ baseUrl: '/api', tokens: { get: () => 't', set: () => undefined, clear: () => undefined }, fetch });
    await expect(revisionManifest(client, 7, 2)).rejects.toThrow(/^Unexpected answer from GET \/design-orders\/items\/7\/tiles\/2\/manifest: width: /);
  });
});
