import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from './ApiClient';
import { listCampaigns, listExports, listTemplates, modelFor, printSpacesOf } from './campaigns';
import { UnexpectedAnswerError } from './schema';

/** A client whose every request is answered with `body`; the requested URLs are recorded. */
function answering(body: unknown) {
  let token: string | null = 't';
  const urls: string[] = [];
  const fetch = vi.fn<typeof globalThis.fetch>((input) => {
    urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }));
  });
  const tokens = { get: () => token, set: (v: string) => void (token = v), clear: () => void (token = null) };
  return { client: new ApiClient({ baseUrl: '/api', tokens, fetch }), urls };
}

const ok = (data: unknown) => ({ success: true, message: '', data, errors: [] });

describe('campaign calls', () => {
  it('names the call and the field when an answer breaks the contract', async () => {
    const template = {
      id: 1,
      name: 'T-shirt',
      product_type: 'tshirt',
      print_spaces: '[]',
      full_printed: 0,
      options: '{}',
      default_option: '',
      mockup_type: 'flat',
      base_cost: '8.50',
      extra_print_cost: 3,
      personalized: false,
    };
    const { client } = answering(ok([template]));
    const error = await listTemplates(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect((error as Error).message).toMatch(/^Unexpected answer from GET \/seller\/product-templates: 0\.base_cost: /);
  });

  it('reads an export whose report leaves out empty lists', async () => {
    const row = {
      design_id: 3,
      product_id: 2,
      print_space: 'front',
      revision: 4,
      status: 'done',
      file_url: 'p/1/print_3_r4.png',
      download_url: '/blob/p/1/print_3_r4.png?sig=x',
      file_name: 'Summer tee - T-shirt - front - r4.png',
      width: 4500,
      height: 5400,
      dpi: 300,
      file_size: 1234,
      report: { width: 4500, height: 5400, dpi: { quality: 'good', min_effective_dpi: 0, objects: null } },
      error: '',
    };
    const { client } = answering(ok([row]));
    const [read] = await listExports(client, 1);
    expect(read?.report).toEqual({
      width: 4500,
      height: 5400,
      dpi: { quality: 'good', min_effective_dpi: 0, objects: [] },
      font_fallbacks: [],
      warnings: [],
    });
  });

  it('asks for the list with its query', async () => {
    const page = { data: [], total: 0, per_page: 15, current_page: 2, last_page: 1, from: null, to: null };
    const { client, urls } = answering(page);
    expect(await listCampaigns(client, { q: 'summer', page: 2, kind: 'combo' })).toEqual(page);
    const url = new URL(urls[0] ?? '', 'http://localhost');
    expect(url.pathname).toBe('/api/seller/campaigns');
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'summer', page: '2', per_page: '15', order_by: 'id:desc', 'system_type[]': 'combo' });
  });
});

describe('printSpacesOf', () => {
  it('parses the JSON text and names the product when it is malformed', () => {
    const front = { name: 'front', width: 4500, height: 5400, displayWidth: 500, printType: 0, isMain: true, viewWidth: 500, viewHeight: 600, DPI: 300, minDPI: 150 };
    expect(printSpacesOf({ name: 'T-shirt', print_spaces: JSON.stringify([front]) })).toEqual([front]);
    expect(() => printSpacesOf({ name: 'Mug', print_spaces: '[{' })).toThrow('The print spaces of Mug are not JSON.');
    expect(() => printSpacesOf({ name: 'Mug', print_spaces: '[{"name":"wrap"}]' })).toThrow(/^The print spaces of Mug are malformed/);
  });
});

describe('modelFor', () => {
  const model = (template_id: number, print_space: string, type_detail: string, name: string) => ({ template_id, print_space, type_detail, name, url: `/m/${name}` });
  const models = [model(1, 'front', 'hoodie', 'Hoodie 3D'), model(1, 'front', '', 'Any 3D'), model(2, 'wrap', 'mug', 'Mug 3D')];

  it('takes the model of the product template and print space whose type detail fits', () => {
    expect(modelFor(models, { template_id: 1, mockup_type: 'tshirt' }, 'front')?.name).toBe('Any 3D');
    expect(modelFor(models, { template_id: 1, mockup_type: 'hoodie' }, 'front')?.name).toBe('Hoodie 3D');
    expect(modelFor(models, { template_id: 2, mockup_type: 'mug' }, 'wrap')?.name).toBe('Mug 3D');
    expect(modelFor(models, { template_id: 2, mockup_type: 'poster' }, 'wrap')).toBeUndefined();
    expect(modelFor(models, { template_id: 1, mockup_type: 'tshirt' }, 'back')).toBeUndefined();
  });
});
