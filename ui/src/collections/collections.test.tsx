import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Collection } from '../api/collections';
import { slugify } from '../api/collections';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { CollectionEditPage } from './CollectionEditPage';
import { CollectionsPage } from './CollectionsPage';
import { FeaturedCampaignsPage } from './FeaturedCampaignsPage';
import { moved } from './model';
import { campaignSummary } from '../test/campaigns';

const summer: Collection = {
  id: 4,
  name: 'Summer',
  slug: 'summer',
  description: 'Hot days.',
  all_stores: true,
  store_ids: [],
  stores: [],
  campaigns: [
    { id: 11, name: 'Dogs', featured_position: 1 },
    { id: 10, name: 'Cats', featured_position: 2 },
    { id: 12, name: 'Birds', featured_position: null },
  ],
  campaigns_count: 3,
  featured_count: 2,
  created_at: '2026-04-15T10:00:00Z',
  updated_at: '2026-04-15T10:00:00Z',
};

const readOnlyMember = makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true });

afterEach(() => vi.unstubAllGlobals());

describe('collections', () => {
  it('lists collections with where they show and what they hold', async () => {
    showPages('/collections', { '/collections': <CollectionsPage /> }, () =>
      Promise.resolve(onePage([{ ...summer, campaigns: null }, { ...summer, id: 5, name: 'Winter', slug: 'winter', all_stores: false, stores: [{ id: 1, name: "Sam's Print Shop" }], campaigns: null, campaigns_count: 1, featured_count: 0 }])),
    );
    const [first, second] = await screen.findAllByTestId('collection');
    if (!first || !second) throw new Error('two rows expected');
    expect(within(first).getByText('All my stores')).toBeInTheDocument();
    expect(within(first).getByText('3 campaigns')).toBeInTheDocument();
    expect(within(first).getByText('2 featured')).toBeInTheDocument();
    expect(within(second).getByText("Sam's Print Shop")).toBeInTheDocument();
    expect(within(second).getByText('1 campaign')).toBeInTheDocument();
    expect(within(second).getByText('None featured')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New collection' })).toHaveAttribute('href', '/collections/edit/new');
  });

  it('shows the empty state, and no way to change anything to a read-only member', async () => {
    showPages('/collections', { '/collections': <CollectionsPage /> }, () => Promise.resolve(onePage([])), readOnlyMember);
    expect(await screen.findByText('Oops! No entries found.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New collection' })).toBeNull();
  });

  it('creates a collection with an address made from its name, and shows a refusal next to its field', async () => {
    let refuse = true;
    const calls = showPages('/collections/edit/new', { '/collections/edit/:id': <CollectionEditPage /> }, (url, init) => {
      if (url.pathname === '/api/seller/campaigns') return Promise.resolve(onePage([campaignSummary(10, 'Cats'), campaignSummary(11, 'Dogs')]));
      if (url.pathname === '/api/seller/collections/slug-availability') return Promise.resolve(ok({ slug: url.searchParams.get('slug'), available: true, message: '' }));
      if (init?.method === 'POST' && refuse) {
        refuse = false;
        const msg = 'You already have a collection at this address; choose another.';
        return Promise.resolve(json({ success: false, message: msg, data: null, errors: [{ field: 'slug', message: msg }] }, 422));
      }
      if (init?.method === 'POST') return Promise.resolve(json({ success: true, message: 'The collection was created.', data: { ...summer, id: 9 }, errors: [] }, 201));
      return Promise.resolve(ok(summer));
    });
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Summer Sale!');
    expect(screen.getByLabelText(/^Address/)).toHaveValue('summer-sale');
    await userEvent.click(screen.getByRole('button', { name: 'Create collection' }));
    expect(await screen.findByText('You already have a collection at this address; choose another.')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText(/^Address/));
    await userEvent.type(screen.getByLabelText(/^Address/), 'summer-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Create collection' }));
    await waitFor(() => expect(calls.filter((c) => c.init?.method === 'POST')).toHaveLength(2));
    const body = JSON.parse(calls.filter((c) => c.init?.method === 'POST').at(-1)?.init?.body as string) as Record<string, unknown>;
    expect(body).toEqual({ name: 'Summer Sale!', slug: 'summer-2026', description: '', all_stores: true, store_ids: [], campaign_ids: [] });
  });

  it('orders the featured campaigns with the keyboard-reachable buttons and saves that order', async () => {
    const calls = showPages('/collections/4/featured-campaigns', { '/collections/:id/featured-campaigns': <FeaturedCampaignsPage /> }, (_url, init) =>
      Promise.resolve(init?.method === 'PUT' ? json({ success: true, message: 'The featured campaigns were saved.', data: summer, errors: [] }) : ok(summer)),
    );
    const featured = () => screen.getAllByTestId('featured-campaign').map((row) => row.textContent);
    await screen.findByText('Featured, in order');
    expect(featured()).toEqual(['1.Dogs', '2.Cats']);
    expect(screen.getByRole('button', { name: 'Move Dogs up' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Move Cats up' }));
    expect(featured()).toEqual(['1.Cats', '2.Dogs']);
    // The keyboard: focus the Feature button of Birds and press Enter.
    screen.getByRole('button', { name: 'Feature Birds' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(featured()).toEqual(['1.Cats', '2.Dogs', '3.Birds']);
    expect(screen.getByText('Every campaign of this collection is featured.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Stop featuring Dogs' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save order' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.init?.method === 'PUT')!;
    expect(put.url.pathname).toBe('/api/seller/collections/4/featured-campaigns');
    expect(JSON.parse(put.init?.body as string)).toEqual({ campaign_ids: [10, 12] });
  });

  it('shows the featured order read-only to a member without update_campaign', async () => {
    showPages('/collections/4/featured-campaigns', { '/collections/:id/featured-campaigns': <FeaturedCampaignsPage /> }, () => Promise.resolve(ok(summer)), readOnlyMember);
    await screen.findByText('Featured, in order');
    expect(screen.queryByRole('button', { name: /Move|Feature|Save order/ })).toBeNull();
  });

  it('makes addresses and moves items', () => {
    expect(slugify('  Été à la Plage — 2026! ')).toBe('ete-a-la-plage-2026');
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });
});
