import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Store } from '../api/stores';
import { meQuery } from '../session/queries';
import { json } from '../test/answers';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { StoreEditPage } from './StoreEditPage';

const demo: Store = {
  id: 5,
  name: 'Sam <b>Shop</b>',
  slug: 'demo',
  domain: 'demo.pressroom.local',
  logo_key: '',
  favicon_key: '',
  primary_color: '#1f2a44',
  accent_color: '#d82e8b',
  currency: 'USD',
  target_market: 'United States',
  review_setting: 'disable',
  is_open: true,
  campaigns: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

/** Answers the store, its products and the slug check ("taken" is taken). */
function serve() {
  const seen: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const url = new URL(input, 'http://localhost');
      seen.push(url.pathname + url.search);
      if (url.pathname === '/api/seller/stores/5') return Promise.resolve(json({ success: true, message: '', data: demo, errors: [] }));
      if (url.pathname === '/api/seller/stores/5/products') return Promise.resolve(json({ success: true, message: '', data: [], errors: [] }));
      if (url.pathname === '/api/seller/stores/slug-availability') {
        const slug = url.searchParams.get('slug');
        const taken = slug === 'taken';
        return Promise.resolve(
          json({ success: true, message: '', data: { slug, available: !taken, message: taken ? 'This address is taken; choose another.' : '' }, errors: [] }),
        );
      }
      return Promise.resolve(json({ success: false, message: `no route ${url.pathname}`, data: null, errors: [] }, 404));
    }),
  );
  return seen;
}

function show(path: string, permissions?: string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, permissions ? makeUser({ roles: ['staff'], permissions }) : makeUser());
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/storefronts/edit/:id" element={<StoreEditPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('StoreEditPage', () => {
  it('says while typing that an address is taken, and links the shop', async () => {
    serve();
    show('/storefronts/edit/5');
    const address = await screen.findByLabelText(/Address/);
    expect(screen.getByRole('link', { name: 'http://127.0.0.1:8082/s/demo/' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Sam <b>Shop</b>' })).toBeTruthy();
    await userEvent.clear(address);
    await userEvent.type(address, 'taken');
    expect(await screen.findByText('This address is taken; choose another.')).toBeTruthy();
    await userEvent.clear(address);
    await userEvent.type(address, 'free-one');
    expect(await screen.findByText('This address is free.')).toBeTruthy();
  });

  it('is read-only for a team member without update_campaign', async () => {
    serve();
    show('/storefronts/edit/5', ['get_campaigns']);
    const name = await screen.findByLabelText(/Name/);
    expect((name as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save store' })).toBeNull();
  });
});
