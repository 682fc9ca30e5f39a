import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BlogCategory, BlogPost } from '../api/blog';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { BlogCategoriesPage } from './BlogCategoriesPage';
import { BlogPostEditPage } from './BlogPostEditPage';
import { StoreBlogPage } from './StoreBlogPage';

const demoStore = { id: 1, name: "Sam's Print Shop", slug: 'demo' };
const news: BlogCategory = { id: 3, name: 'News', slug: 'news', description: 'What is new', posts: 2, created_at: '2026-04-01T10:00:00Z', updated_at: '2026-04-01T10:00:00Z' };
const post: BlogPost = {
  id: 5,
  store_id: 1,
  store_name: "Sam's Print Shop",
  store_slug: 'demo',
  title: 'Autumn drop',
  slug: 'autumn-drop',
  excerpt: 'New hoodies.',
  body: '<p>Warm <strong>hoodies</strong>.</p>',
  cover_key: 'u/2/blog/cover.png',
  cover_url: '/api/files/u/2/blog/cover.png',
  status: 'published',
  state: 'published',
  published_at: '2026-04-15T10:00:00Z',
  category_ids: [3],
  categories: [{ id: 3, name: 'News', slug: 'news' }],
  created_at: '2026-04-15T09:00:00Z',
  updated_at: '2026-04-15T10:00:00Z',
};

const readOnlyMember = makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true });

const answering =
  (more: (url: URL, init?: RequestInit) => Response | undefined) =>
  (url: URL, init?: RequestInit): Promise<Response> => {
    if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([demoStore]));
    if (url.pathname === '/api/seller/stores/1') return Promise.resolve(ok(demoStore));
    if (url.pathname === '/api/seller/blog/categories' && (init?.method ?? 'GET') === 'GET') return Promise.resolve(onePage([news]));
    return Promise.resolve(more(url, init) ?? ok(null));
  };

afterEach(() => vi.unstubAllGlobals());

describe('store blog', () => {
  it("lists a store's posts with their state, date and categories, and narrows them by state", async () => {
    const calls = showPages(
      '/storefronts/1/blog',
      { '/storefronts/:id/blog': <StoreBlogPage /> },
      answering((url) =>
        url.pathname === '/api/seller/blog/posts'
          ? onePage([post, { ...post, id: 6, title: 'Winter', slug: 'winter', state: 'scheduled', cover_url: '', categories: [] }])
          : undefined,
      ),
    );
    const [first, second] = await screen.findAllByTestId('blog-post');
    if (!first || !second) throw new Error('two rows expected');
    expect(within(first).getByText('Published')).toBeInTheDocument();
    expect(within(first).getByText('News')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: '/blog/autumn-drop' })).toHaveAttribute('href', 'http://127.0.0.1:8082/s/demo/blog/autumn-drop');
    expect(within(second).getByText('Scheduled')).toBeInTheDocument();
    expect(within(second).queryByRole('link', { name: '/blog/winter' })).toBeNull();
    expect(await screen.findByRole('heading', { name: "Blog of Sam's Print Shop" })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New post' })).toHaveAttribute('href', '/blog/new?store=1');
    fireEvent.click(screen.getByText('Drafts'));
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('state') === 'draft')).toBe(true));
    expect(calls.filter((c) => c.url.pathname === '/api/seller/blog/posts').every((c) => c.url.searchParams.get('store_id') === '1')).toBe(true);
  });

  it('gives a read-only member the posts without a way to change them', async () => {
    showPages('/storefronts/1/blog', { '/storefronts/:id/blog': <StoreBlogPage /> }, answering(() => onePage([post])), readOnlyMember);
    await screen.findAllByTestId('blog-post');
    expect(screen.queryByRole('link', { name: 'New post' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.getByRole('link', { name: 'View' })).toHaveAttribute('href', '/blog/5/edit');
  });

  // The post editor is the heaviest form of the app under jsdom (the rich-text editor, three pickers): it gets twice
  // the default time.
  it('writes a new post for the store it was opened from, with its publication', { timeout: 40_000 }, async () => {
    const calls = showPages(
      '/blog/new?store=1',
      { '/blog/new': <BlogPostEditPage />, '/blog/:postId/edit': <BlogPostEditPage /> },
      answering((url, init) => {
        if (init?.method === 'POST') return json({ success: true, message: 'The post was created.', data: post, errors: [] }, 201);
        if (url.pathname === '/api/seller/blog/posts/5') return ok(post);
        if (url.pathname === '/api/seller/blog/posts/slug-availability') return ok({ slug: url.searchParams.get('slug'), available: true, message: '' });
        return undefined;
      }),
    );
    fireEvent.change(await screen.findByLabelText(/^Title/), { target: { value: 'Autumn Drop!' } });
    expect(screen.getByLabelText(/^Address/)).toHaveValue('autumn-drop');
    fireEvent.click(screen.getByText('Published'));
    fireEvent.change(screen.getByLabelText(/^Publish date/), { target: { value: '2026-05-01T09:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create post' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'POST')).toBe(true));
    const body = JSON.parse(calls.find((c) => c.init?.method === 'POST')?.init?.body as string) as Record<string, unknown>;
    expect(body).toEqual({
      store_id: 1,
      title: 'Autumn Drop!',
      slug: 'autumn-drop',
      excerpt: '',
      body: '',
      cover_key: '',
      category_ids: [],
      status: 'published',
      published_at: new Date('2026-05-01T09:30').toISOString(),
    });
    // Saved, the editor is the post's own page.
    expect(await screen.findByRole('heading', { name: 'Autumn drop' }, { timeout: 5000 })).toBeInTheDocument();
  });

  it("shows the server's refusals next to their fields, and the post's cover, text and categories when it is saved again", async () => {
    const calls = showPages(
      '/blog/5/edit',
      { '/blog/:postId/edit': <BlogPostEditPage /> },
      answering((_url, init) => {
        if (init?.method === 'PUT') {
          const msg = 'Upload the cover again: this file is not one of your images.';
          return json({ success: false, message: msg, data: null, errors: [{ field: 'cover_key', message: msg }] }, 422);
        }
        return ok(post);
      }),
    );
    expect(await screen.findByRole('img', { name: "The post's cover" })).toHaveAttribute('src', '/api/files/u/2/blog/cover.png?variant=preview');
    expect(await screen.findByText('hoodies')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Save post' }));
    expect(await screen.findByText('Upload the cover again: this file is not one of your images.')).toBeInTheDocument();
    const put = calls.find((c) => c.init?.method === 'PUT')!;
    expect(JSON.parse(put.init?.body as string)).toMatchObject({ cover_key: 'u/2/blog/cover.png', category_ids: [3], body: post.body, status: 'published' });
    fireEvent.click(screen.getByRole('button', { name: 'Remove cover' }));
    expect(screen.getByText('No cover: the post shows without a picture.')).toBeInTheDocument();
  });
});

describe('blog categories', () => {
  it('lists the categories with their posts, and creates one in a dialog', async () => {
    const calls = showPages(
      '/blog/categories',
      { '/blog/categories': <BlogCategoriesPage /> },
      answering((url, init) => {
        if (init?.method === 'POST') return json({ success: true, message: 'The category was created.', data: { ...news, id: 4 }, errors: [] }, 201);
        if (url.pathname.endsWith('/slug-availability')) return ok({ slug: url.searchParams.get('slug'), available: true, message: '' });
        return undefined;
      }),
    );
    const [row] = await screen.findAllByTestId('blog-category');
    expect(within(row!).getByText('2 posts')).toBeInTheDocument();
    expect(within(row!).getByText('/blog/category/news')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'New category' }));
    fireEvent.change(await screen.findByLabelText(/^Name/), { target: { value: 'Behind the Scenes' } });
    expect(screen.getByLabelText(/^Address/)).toHaveValue('behind-the-scenes');
    fireEvent.click(screen.getByRole('button', { name: 'Create category' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'POST')).toBe(true));
    expect(JSON.parse(calls.find((c) => c.init?.method === 'POST')?.init?.body as string)).toEqual({
      name: 'Behind the Scenes',
      slug: 'behind-the-scenes',
      description: '',
    });
  });

  it('gives a read-only member no way to change the categories', async () => {
    showPages('/blog/categories', { '/blog/categories': <BlogCategoriesPage /> }, answering(() => undefined), readOnlyMember);
    await screen.findAllByTestId('blog-category');
    expect(screen.queryByRole('button', { name: /New category|Edit|Delete/ })).toBeNull();
  });
});
