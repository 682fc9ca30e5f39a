import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign, DesignExport, Product } from '../api/campaigns';
import { addImage, emptyDocument } from '../editor/model';
import { json, ok } from '../test/answers';
import { meQuery } from '../session/queries';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { CampaignEditorPage } from './CampaignEditorPage';

// jsdom has no 2D canvas context, so Konva cannot draw here: the page's logic is tested around an empty stand-in,
// and the real canvas in Chromium (e2e/campaign-editor.e2e.ts).
vi.mock('../editor/DesignCanvas', () => ({ DesignCanvas: () => <div data-testid="canvas-stand-in" /> }));

const front = { name: 'front', width: 4500, height: 5400, displayWidth: 500, printType: 0, isMain: true, viewWidth: 500, viewHeight: 600, DPI: 300, minDPI: 150 };
const product: Product = {
  id: 7,
  template_id: 1,
  name: 'T-shirt',
  product_type: 'tshirt',
  print_spaces: JSON.stringify([front]),
  full_printed: 0,
  options: '{"colors":[]}',
  default_option: '',
  mockup_type: 'flat',
  base_cost: 8.5,
  extra_print_cost: 3,
  personalized: false,
};
const art = addImage(emptyDocument(front), { id: 'art-1', src: 'u/1/artworks/a-art.png', width: 4500, height: 5400 }, { restricted: true });
const idle = { status: 'none' as const, file_url: '', download_url: '', file_name: '', width: 0, height: 0, dpi: 0, file_size: 0, report: null, error: '' };
const CAMPAIGN: Campaign = {
  id: 41,
  name: 'Summer drop',
  slug: 'summer-drop',
  kind: 'regular',
  personalized: null,
  artwork_url: '',
  status: 'draft',
  created_at: '2026-11-22T06:00:00Z',
  updated_at: '2026-11-22T06:00:00Z',
  products: [product],
  designs: [{ id: 90, product_id: 7, print_space: 'front', design_json: art, option: 'print', revision: 1, export: idle }],
};

interface Backend {
  save: () => Response;
  exports: () => DesignExport[];
}

function serve(backend: Backend) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit) => {
      const path = new URL(input, 'http://localhost').pathname;
      const method = init.method ?? 'GET';
      calls.push({ method, path, body: init.body ? JSON.parse(init.body as string) : undefined });
      const answers: Record<string, () => Response> = {
        'GET /api/seller/campaigns/41': () => ok(CAMPAIGN),
        'PUT /api/seller/campaigns/41': backend.save,
        'GET /api/seller/campaigns/41/exports': () => ok(backend.exports()),
        'POST /api/seller/campaigns/41/calc-extra-print-cost-products': () => ok([{ id: 7, extra_print_cost: 0 }]),
        'GET /api/seller/product-templates': () => ok([]),
        'GET /api/fonts': () => ok([{ family: 'Roboto', url: '/api/fonts/Roboto-Regular.ttf', font_url: '' }]),
        'GET /api/seller/fonts': () => ok([]),
        'GET /api/seller/artworks': () => json({ data: [], total: 0, per_page: 24, current_page: 1, last_page: 1, from: null, to: null }),
      };
      const answer = answers[`${method} ${path}`];
      return Promise.resolve(answer ? answer() : json({ success: false, message: `no route ${path}`, data: null, errors: [] }, 404));
    }),
  );
  return calls;
}

function setup(backend: Backend, user = makeUser()) {
  const calls = serve(backend);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, user);
  const router = createMemoryRouter(
    [
      { path: '/campaigns/edit/:id?', element: <CampaignEditorPage /> },
      { path: '/campaigns', element: <h1>Campaign list</h1> },
    ],
    {
      initialEntries: ['/campaigns/edit/41'],
    },
  );
  renderWithMantine(
    <QueryClientProvider client={client}>
      <Notifications />
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { calls, user: userEvent.setup({ delay: null }) };
}

afterEach(() => vi.unstubAllGlobals());

describe('CampaignEditorPage', { timeout: 20_000 }, () => {
  it('gives a team member who may only read campaigns a read-only editor', async () => {
    const { calls, user } = setup({ save: () => ok(CAMPAIGN), exports: () => [] }, makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true }));
    expect(await screen.findByTestId('editor-read-only')).toHaveTextContent('View only');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    const name = screen.getByRole('textbox', { name: /name/i });
    expect(name).toBeDisabled();
    await user.keyboard('{Delete}');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('shows the bff’s field errors on the design and the message as a toast', async () => {
    const { calls, user } = setup({
      save: () =>
        json(
          {
            success: false,
            message: 'The given data was invalid.',
            data: null,
            errors: [{ field: 'designs[0].design_json.objects[0].src', message: 'artwork u/1/artworks/a-art.png is not yours' }],
          },
          422,
        ),
      exports: () => [],
    });
    await user.click(await screen.findByRole('button', { name: 'Save' }));

    expect(await screen.findByTestId('design-error')).toHaveTextContent('art-1 (src): artwork u/1/artworks/a-art.png is not yours');
    expect(await screen.findByText('The campaign was not saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      name: 'Summer drop',
      personalized: null,
      products: [{ id: 7, personalized: false }],
      designs: [{ product_id: 7, print_space: 'front', design_json: art }],
    });
  });

  it('saves a name holding a listed trademark and warns of it', async () => {
    const message = '"nike" is on the list of trademarks: a campaign using it without the owner\'s permission may be taken down.';
    const { calls, user } = setup({
      save: () => ok({ ...CAMPAIGN, name: 'Nike drop', warnings: [{ field: 'name', term: 'nike', message }] }),
      exports: () => [],
    });
    const name = await screen.findByRole('textbox', { name: 'Campaign name' });
    expect(screen.queryByTestId('trademark-warning')).not.toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'Nike drop');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('trademark-warning')).toHaveTextContent(message);
    expect(await screen.findByText('Campaign saved. Making the print files…')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ name: 'Nike drop' });
  });

  it('refuses to send a save that breaks the personalized rule', async () => {
    const { calls, user } = setup({ save: () => ok(CAMPAIGN), exports: () => [] });
    await user.click(await screen.findByRole('combobox', { name: 'Personalized' }));
    await user.click(await screen.findByRole('option', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findAllByText("Campaign's personalized should be matched with products's personalized."),
    ).not.toHaveLength(0);
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('asks before leaving with unsaved changes', async () => {
    const { user } = setup({ save: () => ok(CAMPAIGN), exports: () => [] });
    const name = await screen.findByRole('textbox', { name: 'Campaign name' });
    await user.type(name, ' 2');
    await user.click(screen.getByRole('link', { name: '← Campaigns' }));

    expect(await screen.findByText('Leave without saving?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Stay' }));
    expect(screen.getByRole('textbox', { name: 'Campaign name' })).toHaveValue('Summer drop 2');
    expect(screen.queryByRole('heading', { name: 'Campaign list' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: '← Campaigns' }));
    await user.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Campaign list' })).toBeInTheDocument();
  });

  it('polls the exports after a save until the print file is done, then shows it', async () => {
    let polls = 0;
    const saved: Campaign = { ...CAMPAIGN, designs: [{ ...CAMPAIGN.designs[0]!, revision: 2, export: { ...idle, status: 'pending' } }] };
    const { calls, user } = setup({
      save: () => ok(saved),
      exports: () => {
        polls++;
        const base = { design_id: 90, product_id: 7, print_space: 'front' };
        if (polls < 3) return [{ ...base, ...idle, revision: polls === 1 ? 1 : 2, status: polls === 1 ? 'none' : 'rendering' }];
        return [
          {
            ...base,
            ...idle,
            revision: 2,
            status: 'done',
            download_url: '/blob/p/41/print_90_r2.png?sig=x&name=Summer+tee+-+T-shirt+-+front+-+r2.png',
            file_name: 'Summer tee - T-shirt - front - r2.png',
            width: 4500,
            height: 5400,
            dpi: 300,
            file_size: 9_500_000,
            report: {
              width: 4500,
              height: 5400,
              dpi: { quality: 'good', min_effective_dpi: 300, objects: [{ id: 'art-1', source_width: 4500, source_height: 5400, placed_width: 4500, placed_height: 5400, effective_dpi: 300, quality: 'good' }] },
              font_fallbacks: [],
              warnings: [],
            },
          },
        ];
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Save' }));

    const row = await screen.findByTestId('export-row', {}, { timeout: 5000 });
    await waitFor(() => expect(row).toHaveAttribute('data-status', 'done'), { timeout: 8000 });
    expect(within(row).getByTestId('print-file-meta')).toHaveTextContent('4500×5400 px · 300 DPI · 9.1 MB');
    const download = within(row).getByRole('link', { name: /Download/ });
    expect(download).toHaveAttribute('href', '/blob/p/41/print_90_r2.png?sig=x&name=Summer+tee+-+T-shirt+-+front+-+r2.png');
    expect(download).toHaveAttribute('title', 'Summer tee - T-shirt - front - r2.png');
    expect(within(row).getByTestId('dpi-report')).toHaveTextContent('300 · Good');
    const settledPolls = calls.filter((c) => c.path.endsWith('/exports')).length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(calls.filter((c) => c.path.endsWith('/exports')).length).toBe(settledPolls);
  });
});
