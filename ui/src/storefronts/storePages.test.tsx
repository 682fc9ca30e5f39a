import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StorePage } from '../api/storePages';
import type { Sitemap } from '../api/sitemap';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { SitemapPage } from './SitemapPage';
import { SitemapUrlsPage } from './SitemapUrlsPage';
import { StorePageEditPage } from './StorePageEditPage';
import { StorePagesPage } from './StorePagesPage';

const demoStore = { id: 1, name: "Sam's Print Shop", slug: 'demo' };
const about: StorePage = {
  id: 7,
  store_id: 1,
  store_name: "Sam's Print Shop",
  store_slug: 'demo',
  title: 'About us',
  slug: 'about',
  menu_position: 'side_column',
  position: 2,
  published: true,
  updated_at: '2026-04-15T10:00:00Z',
  body: '<h2>Who we are</h2><p>We print <strong>small runs</strong>.</p>',
};

const readOnlyMember = makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true });

/** The answers of the calls every page screen makes: the store choices and the rest from `more`. */
const answering =
  (more: (url: URL, init?: RequestInit) => Response | undefined) =>
  (url: URL, init?: RequestInit): Promise<Response> => {
    if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([demoStore, { id: 2, name: 'Second', slug: 'second' }]));
    return Promise.resolve(more(url, init) ?? ok(null));
  };

afterEach(() => vi.unstubAllGlobals());

describe('store pages', () => {
  it('lists the pages of every store with their menu and state, and filters by store', async () => {
    const calls = showPages(
      '/storefronts/pages?store=1',
      { '/storefronts/pages': <StorePagesPage /> },
      answering((url) =>
        url.pathname === '/api/seller/store-pages' ? onePage([about, { ...about, id: 8, title: 'Secret sale', slug: 'secret', menu_position: 'header', published: false }]) : undefined,
      ),
    );
    const [first, second] = await screen.findAllByTestId('store-page');
    if (!first || !second) throw new Error('two rows expected');
    expect(within(first).getByText('Side column')).toBeInTheDocument();
    expect(within(first).getByText('Published')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: '/p/about' })).toHaveAttribute('href', 'http://127.0.0.1:8082/s/demo/p/about');
    expect(within(second).getByText('Draft')).toBeInTheDocument();
    expect(within(second).getByText('Header')).toBeInTheDocument();
    expect(calls.find((c) => c.url.pathname === '/api/seller/store-pages')?.url.searchParams.get('store_id')).toBe('1');
    expect(screen.getByRole('link', { name: 'New page' })).toHaveAttribute('href', '/storefronts/pages/create?store=1');
  });

  it('gives a read-only member no way to change a page', async () => {
    showPages('/storefronts/pages/edit/7', { '/storefronts/pages/edit/:id': <StorePageEditPage /> }, answering(() => ok(about)), readOnlyMember);
    expect(await screen.findByRole('heading', { name: 'About us' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Title/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save page' })).toBeNull();
    // The text shows, without the editor's toolbar.
    expect(await screen.findByText('Who we are')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Bold' })).toBeNull();
  });

  it('makes the address from the title and checks it while typed', async () => {
    showPages(
      '/storefronts/pages/create?store=1',
      { '/storefronts/pages/create': <StorePageEditPage /> },
      answering((url) => {
        if (url.pathname !== '/api/seller/store-pages/slug-availability') return undefined;
        const slug = url.searchParams.get('slug');
        return ok({ slug, available: slug !== 'shipping', message: slug === 'shipping' ? 'This store already has a page at this address.' : '' });
      }),
    );
    fireEvent.change(await screen.findByLabelText(/^Title/), { target: { value: 'Shipping' } });
    expect(screen.getByLabelText(/^Address/)).toHaveValue('shipping');
    expect(await screen.findByText('This store already has a page at this address.', {}, { timeout: 5000 })).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/^Address/), { target: { value: 'delivery' } });
    expect(await screen.findByText(/^This address is free\. Buyers will find it at http:\/\/127\.0\.0\.1:8082\/s\/demo\/p\/delivery$/, {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('creates a page, showing a refusal next to its field first', async () => {
    let refuse = true;
    const calls = showPages(
      '/storefronts/pages/create?store=1',
      { '/storefronts/pages/create': <StorePageEditPage />, '/storefronts/pages/edit/:id': <StorePageEditPage /> },
      answering((url, init) => {
        if (init?.method === 'POST' && refuse) {
          refuse = false;
          const msg = 'The title may not be longer than 200 characters.';
          return json({ success: false, message: msg, data: null, errors: [{ field: 'title', message: msg }] }, 422);
        }
        if (init?.method === 'POST') return json({ success: true, message: 'The page was created.', data: { ...about, id: 9 }, errors: [] }, 201);
        if (url.pathname === '/api/seller/store-pages/9') return ok(about);
        if (url.pathname === '/api/seller/store-pages/slug-availability') return ok({ slug: url.searchParams.get('slug'), available: true, message: '' });
        return undefined;
      }),
    );
    fireEvent.change(await screen.findByLabelText(/^Title/), { target: { value: 'Shipping' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create page' }));
    expect(await screen.findByText('The title may not be longer than 200 characters.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Create page' }));
    await waitFor(() => expect(calls.filter((c) => c.init?.method === 'POST')).toHaveLength(2));
    const body = JSON.parse(calls.filter((c) => c.init?.method === 'POST').at(-1)?.init?.body as string) as Record<string, unknown>;
    expect(body).toEqual({ store_id: 1, title: 'Shipping', slug: 'shipping', body: '', menu_position: 'footer', position: 0, published: true });
    expect(await screen.findByRole('heading', { name: 'About us' })).toBeInTheDocument();
  });

  it('saves an existing page with its text and menu', async () => {
    const calls = showPages(
      '/storefronts/pages/edit/7',
      { '/storefronts/pages/edit/:id': <StorePageEditPage /> },
      answering((_url, init) => (init?.method === 'PUT' ? json({ success: true, message: 'The page was saved.', data: about, errors: [] }) : ok(about))),
    );
    await screen.findByRole('heading', { name: 'About us' });
    expect(screen.getByRole('link', { name: 'http://127.0.0.1:8082/s/demo/p/about' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: /Published/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save page' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.init?.method === 'PUT')!;
    expect(put.url.pathname).toBe('/api/seller/store-pages/7');
    expect(JSON.parse(put.init?.body as string)).toEqual({
      store_id: 1,
      title: 'About us',
      slug: 'about',
      body: about.body,
      menu_position: 'side_column',
      position: 2,
      published: false,
    });
  });
});

const map: Sitemap = {
  store_id: 1,
  store_name: "Sam's Print Shop",
  max_urls: 50000,
  addresses: [
    { origin: 'http://demo.localhost:8082', sitemap: 'http://demo.localhost:8082/sitemap.xml', robots: 'http://demo.localhost:8082/robots.txt', custom: false },
    { origin: 'https://shop.example.com', sitemap: 'https://shop.example.com/sitemap.xml', robots: 'https://shop.example.com/robots.txt', custom: true },
  ],
  sections: [
    { section: 'pages', urls: 3, last_modified: '2026-04-15T10:00:00Z', files: [{ id: 'pages-1', section: 'pages', number: 1, urls: 3, url: 'http://demo.localhost:8082/sitemaps/pages-1.xml' }] },
    {
      section: 'campaigns',
      urls: 50001,
      last_modified: null,
      files: [
        { id: 'campaigns-1', section: 'campaigns', number: 1, urls: 50000, url: 'http://demo.localhost:8082/sitemaps/campaigns-1.xml' },
        { id: 'campaigns-2', section: 'campaigns', number: 2, urls: 1, url: 'http://demo.localhost:8082/sitemaps/campaigns-2.xml' },
      ],
    },
    { section: 'collections', urls: 0, last_modified: null, files: [] },
    { section: 'blog', urls: 0, last_modified: null, files: [] },
  ],
};

describe('sitemap', () => {
  it('names the addresses to submit and every section with its count and files', async () => {
    showPages('/storefronts/sitemap/1', { '/storefronts/sitemap/:id': <SitemapPage /> }, () => Promise.resolve(ok(map)));
    const addresses = await screen.findAllByTestId('sitemap-address');
    expect(addresses).toHaveLength(2);
    expect(within(addresses[0]!).getByRole('link', { name: 'http://demo.localhost:8082/sitemap.xml' })).toBeInTheDocument();
    expect(within(addresses[1]!).getByText('Your domain')).toBeInTheDocument();
    const rows = screen.getAllByTestId('sitemap-section').map((r) => r.textContent);
    expect(rows[0]).toContain('Home and pages3 addresses');
    expect(rows[1]).toContain('50001 addresses');
    expect(rows[2]).toContain('Nothing to list yet');
    expect(screen.getByRole('link', { name: 'File 2: 1 address' })).toHaveAttribute('href', '/storefronts/sitemap/1/urls/campaigns-2');
  });

  it('pages through the addresses of one file', async () => {
    const calls = showPages('/storefronts/sitemap/1/urls/campaigns-2', { '/storefronts/sitemap/:id/urls/:sitemapId': <SitemapUrlsPage /> }, (url) =>
      Promise.resolve(
        url.pathname.endsWith('/urls')
          ? onePage([{ url: 'http://demo.localhost:8082/c/9', last_modified: '2026-04-15T10:00:00Z' }])
          : ok(map),
      ),
    );
    expect(await screen.findByRole('heading', { name: 'Campaigns, file 2' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'http://demo.localhost:8082/c/9' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'http://demo.localhost:8082/sitemaps/campaigns-2.xml' })).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname === '/api/seller/stores/1/sitemap/campaigns-2/urls')).toBe(true);
  });

  it('says where to start when no sitemap is named', () => {
    showPages('/storefronts/sitemap/urls', { '/storefronts/sitemap/:id?/urls/:sitemapId?': <SitemapUrlsPage /> }, () => Promise.resolve(ok(null)));
    expect(screen.getByRole('link', { name: 'All Stores' })).toHaveAttribute('href', '/storefronts');
  });
});
