import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProductReview } from '../api/reviews';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { ProductReviewsPage } from './ProductReviewsPage';

const review: ProductReview = {
  id: 3,
  store: { id: 1, name: "Sam's Print Shop" },
  campaign: { id: 10, name: 'Cats' },
  order_id: 41,
  order_number: '1001',
  product_name: 'T-shirt',
  color: 'Black',
  size: 'M',
  author: 'Rae R.',
  rating: 4,
  body: 'Soft and sharp.\nWould buy again.',
  status: 'pending',
  reply: '',
  replied_at: null,
  published_at: null,
  created_at: '2026-04-15T10:00:00Z',
  photo: { status: 'rejected', message: 'The file is not a PNG, JPEG or WebP image.', url: '/api/seller/product-reviews/3/photo' },
};

const store = { id: 1, name: "Sam's Print Shop", review_setting: 'enable-only-store' };
const page = { '/settings/product-reviews': <ProductReviewsPage /> };

/** A first page's answer under jsdom on a loaded 2-core machine can take seconds. */
const SLOW = { timeout: 15_000 };

afterEach(() => vi.unstubAllGlobals());

describe('Product Reviews', () => {
  it("lists a review with its stars, product, order and photo check, and each store's setting in words", async () => {
    showPages('/settings/product-reviews', page, (url) =>
      Promise.resolve(url.pathname === '/api/seller/stores' ? onePage([store]) : onePage([review])),
    );
    const row = await screen.findByTestId('product-review', {}, SLOW);
    expect(within(row).getByRole('img', { name: '4 out of 5 stars' })).toHaveTextContent('★★★★☆');
    expect(within(row).getByText('Waiting for you')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Order #1001' })).toHaveAttribute('href', '/orders/detail/41');
    expect(within(row).getByText(/Cats · T-shirt \(Black, M\)/)).toBeInTheDocument();
    expect(within(row).getByText('The photo was refused: The file is not a PNG, JPEG or WebP image.')).toBeInTheDocument();
    const setting = await screen.findByTestId('review-setting', {}, SLOW);
    expect(within(setting).getByText('Reviews of this store only')).toBeInTheDocument();
    expect(within(setting).getByText('shows the published reviews of its own sales.')).toBeInTheDocument();
    expect(screen.getByText('1 review')).toBeInTheDocument();
  });

  it('sends the filters as the API reads them', async () => {
    const calls = showPages('/settings/product-reviews', page, (url) =>
      Promise.resolve(url.pathname === '/api/seller/stores' ? onePage([store]) : onePage([review])),
    );
    await screen.findByTestId('product-review', {}, SLOW);
    await userEvent.click(screen.getByRole('combobox', { name: 'Rating' }));
    await userEvent.click(await screen.findByRole('option', { name: /2 stars/ }));
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/seller/product-reviews').at(-1);
      expect(last?.url.searchParams.get('rating')).toBe('2');
      expect(last?.url.searchParams.get('page')).toBe('1');
    });
  });

  it('publishes a review and replies; a refused reply shows its reason by the field', async () => {
    let replied = false;
    const calls = showPages('/settings/product-reviews', page, (url, init) => {
      if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([store]));
      if (init?.method === 'POST') return Promise.resolve(json({ success: true, message: 'The review is published: buyers see it on the product\'s page.', data: { ...review, status: 'published' }, errors: [] }));
      if (init?.method === 'PUT') {
        if (!replied) {
          replied = true;
          const msg = 'The reply may be at most 2000 characters long; it has 2001.';
          return Promise.resolve(json({ success: false, message: msg, data: null, errors: [{ field: 'reply', message: msg }] }, 422));
        }
        return Promise.resolve(ok({ ...review, reply: 'Thank you!' }));
      }
      return Promise.resolve(onePage([review]));
    });
    const row = await screen.findByTestId('product-review', {}, SLOW);
    await userEvent.click(within(row).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'POST' && c.url.pathname === '/api/seller/product-reviews/3/publish')).toBe(true));
    // The list is read again after the change.
    await waitFor(() => expect(calls.filter((c) => c.url.pathname === '/api/seller/product-reviews').length).toBeGreaterThan(1));

    await userEvent.click(within(row).getByRole('button', { name: 'Reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reply to Rae R.' });
    await userEvent.type(within(dialog).getByLabelText('Your reply'), 'Thank you!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save reply' }));
    expect(await within(dialog).findByText('The reply may be at most 2000 characters long; it has 2001.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save reply' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reply to Rae R.' })).toBeNull());
    const put = calls.filter((c) => c.init?.method === 'PUT').at(-1);
    expect(JSON.parse(put?.init?.body as string)).toEqual({ reply: 'Thank you!' });
  });

  it('is read-only for a team member without update_campaign', async () => {
    showPages(
      '/settings/product-reviews',
      page,
      (url) => Promise.resolve(url.pathname === '/api/seller/stores' ? onePage([store]) : onePage([review])),
      makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true }),
    );
    const row = await screen.findByTestId('product-review', {}, SLOW);
    expect(within(row).queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(within(row).queryByRole('button', { name: 'Reply' })).toBeNull();
    expect(await screen.findByRole('link', { name: 'See the store' }, SLOW)).toHaveAttribute('href', '/storefronts/edit/1');
  });
});
