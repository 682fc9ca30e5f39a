import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign, Template } from '../api/campaigns';
import { renderWithMantine } from '../test/render';
import { newCampaignSchema } from './newCampaign';
import { NewCampaignForm } from './NewCampaignForm';

const front = { name: 'front', width: 4500, height: 5400, displayWidth: 500, printType: 0, isMain: true, viewWidth: 500, viewHeight: 600, DPI: 300, minDPI: 150 };
const template = (id: number, name: string): Template => ({
  id,
  name,
  product_type: 'tshirt',
  print_spaces: JSON.stringify([front, { ...front, name: 'back' }]),
  full_printed: 0,
  options: '{"colors":[{"name":"White","hex":"#ffffff"}]}',
  default_option: 'White',
  mockup_type: 'flat',
  base_cost: 8.5,
  extra_print_cost: 3,
  personalized: false,
});
const TEMPLATES = [template(1, 'T-shirt'), template(2, 'Hoodie')];
const CREATED: Campaign = {
  id: 41,
  name: 'Summer drop',
  slug: 'summer-drop',
  kind: 'regular',
  personalized: null,
  artwork_url: '',
  status: 'draft',
  created_at: '2026-11-22T06:00:00Z',
  updated_at: '2026-11-22T06:00:00Z',
  products: [],
  designs: [],
};

const envelope = (data: unknown, status = 200, extra: object = {}) =>
  new Response(JSON.stringify({ success: status < 400, message: '', data, errors: [], ...extra }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** The bff's answers, by method and path; every request is recorded. */
function serve(create: () => Response) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit) => {
      const path = new URL(input, 'http://localhost').pathname;
      calls.push({ method: init.method ?? 'GET', path, body: init.body ? JSON.parse(init.body as string) : undefined });
      if (path === '/api/seller/product-templates') return Promise.resolve(envelope(TEMPLATES));
      if (path === '/api/seller/campaigns' && init.method === 'POST') return Promise.resolve(create());
      return Promise.resolve(envelope(null, 404, { message: `no route ${path}` }));
    }),
  );
  return calls;
}

function setup(create: () => Response = () => envelope(CREATED)) {
  const calls = serve(create);
  const onCreated = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderWithMantine(
    <QueryClientProvider client={client}>
      <NewCampaignForm kind="regular" onCreated={onCreated} />
    </QueryClientProvider>,
  );
  return { calls, onCreated, user: userEvent.setup({ delay: null }) };
}

afterEach(() => vi.unstubAllGlobals());

describe('newCampaignSchema', () => {
  it('trims the name and needs a product', () => {
    const result = newCampaignSchema.safeParse({ name: '  ', kind: 'regular', template_ids: [] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['The name field is required.', 'Pick at least one product.']);
    expect(newCampaignSchema.parse({ name: ' Summer ', kind: 'aop', template_ids: [5] })).toEqual({
      name: 'Summer',
      kind: 'aop',
      template_ids: [5],
    });
  });

  it('refuses a kind outside the list', () => {
    expect(newCampaignSchema.safeParse({ name: 'x', kind: 'poster', template_ids: [1] }).success).toBe(false);
  });
});

describe('NewCampaignForm', { timeout: 20_000 }, () => {
  it('asks for a name and a product before creating anything', async () => {
    const { calls, onCreated, user } = setup();
    await screen.findByText('T-shirt');

    await user.click(screen.getByRole('button', { name: 'Create campaign' }));

    expect(await screen.findByText('The name field is required.')).toBeInTheDocument();
    expect(screen.getByText('Pick at least one product.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    expect(onCreated).not.toHaveBeenCalled();
  });

  it('creates the campaign with the picked templates', async () => {
    const { calls, onCreated, user } = setup();
    await user.type(screen.getByLabelText(/Campaign name/), '  Summer drop ');
    await user.click(await screen.findByText('T-shirt'));

    await user.click(screen.getByRole('button', { name: 'Create campaign' }));

    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(CREATED));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Summer drop', kind: 'regular', template_ids: [1] });
  });

  it('shows the bff’s field errors under their fields', async () => {
    const { onCreated, user } = setup(() =>
      envelope(null, 422, {
        message: 'The given data was invalid.',
        errors: [{ field: 'name', message: 'The name has already been taken.' }],
      }),
    );
    await user.type(screen.getByLabelText(/Campaign name/), 'Summer drop');
    await user.click(await screen.findByText('Hoodie'));
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));

    expect(await screen.findAllByText('The name has already been taken.')).toHaveLength(2);
    expect(onCreated).not.toHaveBeenCalled();
  });
});
