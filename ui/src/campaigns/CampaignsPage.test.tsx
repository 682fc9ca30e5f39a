import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignSummary } from '../api/campaigns';
import { meQuery } from '../session/queries';
import { json } from '../test/answers';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { CampaignsPage } from './CampaignsPage';
import { LIST_REFRESH_MS } from './queries';

const base: CampaignSummary = {
  id: 1,
  name: 'Summer drop',
  slug: 'summer-drop',
  kind: 'regular',
  product_type: 'campaign',
  personalized: null,
  status: 'draft',
  product_count: 1,
  design_count: 2,
  updated_at: '2026-03-04T05:06:07Z',
  preview_url: '/api/files/u/7/designs/sun.png?variant=thumb',
  mockup_url: '/api/files/p/1/design_3_2_preview.webp?v=mmbkq9eg',
  mockups_pending: false,
};

/** The four ways a campaign's mockups can stand, as GET /seller/campaigns answers them. */
const campaigns: CampaignSummary[] = [
  base,
  { ...base, id: 2, name: 'Old mockup', mockup_url: '/api/files/p/2/design_3_5.png?v=mmbkq9eg' },
  { ...base, id: 3, name: 'Rendering', mockup_url: '', mockups_pending: true },
  { ...base, id: 4, name: 'Blank', mockup_url: '', preview_url: '' },
];

/** Serves `rows` as the one page of the campaign list and counts the list requests. */
function serve(rows: () => CampaignSummary[]) {
  const calls = { list: 0 };
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const path = new URL(input, 'http://localhost').pathname;
      if (path !== '/api/seller/campaigns') return Promise.resolve(json({ success: false, message: `no route ${path}`, data: null, errors: [] }, 404));
      calls.list++;
      const data = rows();
      return Promise.resolve(json({ data, total: data.length, per_page: 15, current_page: 1, last_page: 1, from: 1, to: data.length }));
    }),
  );
  return calls;
}

function show(user = makeUser()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, user);
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/campaigns']}>
        <CampaignsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The row of campaign `name`. */
const row = (name: string) => {
  const found = screen.getAllByTestId('campaign-row').find((r) => within(r).queryByRole('link', { name }));
  if (!found) throw new Error(`no row for ${name}`);
  return within(found);
};

/** Moves the fake clock on by `ms`, letting the queries it starts settle. */
async function wait(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('CampaignsPage', () => {
  it('offers a team member who may only read campaigns no New, Edit or Delete', async () => {
    serve(() => campaigns);
    show(makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true }));
    await screen.findByRole('link', { name: 'Summer drop' }, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'New campaign' })).not.toBeInTheDocument();
    expect(row('Summer drop').queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(row('Summer drop').queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(row('Summer drop').getByRole('link', { name: 'View' })).toBeInTheDocument();
  });

  it("shows each campaign's default mockup, else its artwork, lazily in a fixed box", async () => {
    serve(() => campaigns);
    show();
    await screen.findByRole('link', { name: 'Summer drop' }, { timeout: 5000 });

    const preview = row('Summer drop').getByRole('img', { name: 'Summer drop mockup' });
    expect(preview.getAttribute('src')).toBe(base.mockup_url);
    expect(preview.getAttribute('loading')).toBe('lazy');
    expect(preview.dataset.kind).toBe('mockup');
    expect(preview.style.width).toBe(preview.style.height);
    expect(preview.style.width).not.toBe('');

    expect(row('Old mockup').getByRole('img', { name: 'Old mockup mockup' }).getAttribute('src')).toBe('/api/files/p/2/design_3_5.png?v=mmbkq9eg');

    const artwork = row('Rendering').getByRole('img', { name: 'Rendering artwork' });
    expect(artwork.getAttribute('src')).toBe(base.preview_url);
    expect(artwork.dataset.kind).toBe('artwork');

    expect(row('Blank').queryByTestId('campaign-picture')).toBeNull();
    expect(row('Blank').queryByRole('img')).toBeNull();
  });

  it('says which campaigns await their mockups, and refreshes until they are made', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'], shouldAdvanceTime: true });
    let made = false;
    const calls = serve(() => (made ? campaigns.map((c) => (c.id === 3 ? { ...c, mockups_pending: false, mockup_url: '/api/files/p/3/m.webp?v=1' } : c)) : campaigns));
    show();
    await screen.findByRole('link', { name: 'Rendering' }, { timeout: 5000 });
    expect(row('Rendering').getByTestId('mockups-pending').textContent).toBe('Mockups pending');
    expect(screen.getAllByTestId('mockups-pending')).toHaveLength(1);

    made = true;
    await wait(LIST_REFRESH_MS);
    await row('Rendering').findByRole('img', { name: 'Rendering mockup' }, { timeout: 5000 });
    expect(row('Rendering').queryByTestId('mockups-pending')).toBeNull();
    const requests = calls.list;
    await wait(3 * LIST_REFRESH_MS);
    expect(calls.list).toBe(requests);
  });

  it('filters by type and status, exports with the filters, and archives and duplicates from the row menu', async () => {
    const requests: { path: string; query: URLSearchParams; method: string }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string, init?: RequestInit) => {
        const url = new URL(input, 'http://localhost');
        requests.push({ path: url.pathname, query: url.searchParams, method: init?.method ?? 'GET' });
        if (url.pathname === '/api/seller/campaigns') {
          return Promise.resolve(json({ data: [base], total: 1, per_page: 15, current_page: 1, last_page: 1, from: 1, to: 1 }));
        }
        if (url.pathname === '/api/seller/campaigns/export') return Promise.resolve(new Response('id,name\n1,Summer drop\n'));
        if (url.pathname === '/api/seller/campaigns/1/archive') {
          return Promise.resolve(json({ success: true, message: 'The campaign is archived and no longer sold in your stores.', data: { id: 1, status: 'archived' }, errors: [] }));
        }
        if (url.pathname === '/api/seller/campaigns/1/duplicate') {
          return Promise.resolve(json({ success: true, message: '', data: { ...base, id: 2, name: 'Summer drop (copy)', slug: 'summer-drop-copy', artwork_url: '', created_at: base.updated_at, products: [], designs: [] }, errors: [] }));
        }
        return Promise.resolve(json({ success: false, message: 'no route', data: null, errors: [] }, 404));
      }),
    );
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    show();
    await screen.findByRole('link', { name: 'Summer drop' }, { timeout: 5000 });
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Archived' }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Campaign template' }));
    await vi.waitFor(() => {
      const last = requests.filter((r) => r.path === '/api/seller/campaigns').at(-1);
      expect(last?.query.get('status[]')).toBe('archived');
      expect(last?.query.get('product_type[]')).toBe('campaign_template');
    });
    await userEvent.click(screen.getByRole('button', { name: 'Export JSON' }));
    await vi.waitFor(() => expect(requests.some((r) => r.path === '/api/seller/campaigns/export')).toBe(true));
    const exported = requests.find((r) => r.path === '/api/seller/campaigns/export')!;
    expect([exported.query.get('format'), exported.query.get('status[]'), exported.query.get('product_type[]')]).toEqual(['json', 'archived', 'campaign_template']);

    await userEvent.click(row('Summer drop').getByRole('button', { name: 'More for Summer drop' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Archive' }));
    await vi.waitFor(() => expect(requests.some((r) => r.path === '/api/seller/campaigns/1/archive' && r.method === 'POST')).toBe(true));
    await userEvent.click(row('Summer drop').getByRole('button', { name: 'More for Summer drop' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Duplicate' }));
    await vi.waitFor(() => expect(requests.some((r) => r.path === '/api/seller/campaigns/1/duplicate' && r.method === 'POST')).toBe(true));
    expect(screen.getByRole('link', { name: 'Import' })).toHaveAttribute('href', '/campaigns/import');
  }, 60_000);
});
