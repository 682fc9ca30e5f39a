import { campaignSummary } from '../test/campaigns';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SocialFeed } from '../api/socialFeeds';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { feedFileName, fileSize } from './model';
import { SocialFeedEditPage } from './SocialFeedEditPage';
import { SocialFeedsPage } from './SocialFeedsPage';

const feed: SocialFeed = {
  id: 5,
  name: 'Google Shopping',
  store_id: 1,
  store_name: "Sam's Print Shop",
  format: 'google',
  all_campaigns: true,
  campaigns_count: 0,
  campaigns: null,
  url: 'http://127.0.0.1:8082/s/demo/feeds/5.xml',
  state: 'ready',
  built_at: '2026-04-15T10:00:00Z',
  item_count: 120,
  skipped_count: 1,
  byte_size: 54_321,
  error: '',
  created_at: '2026-04-15T09:00:00Z',
  updated_at: '2026-04-15T10:00:00Z',
};

/** A first page's answer under jsdom on a loaded 2-core machine can take seconds. */
const SLOW = { timeout: 15_000 };

afterEach(() => vi.unstubAllGlobals());

describe('Social Feed', () => {
  it('lists feeds with their address, last build, items and the products left out', async () => {
    showPages('/social-feed', { '/social-feed': <SocialFeedsPage /> }, () =>
      Promise.resolve(onePage([feed, { ...feed, id: 6, name: 'Catalogue', format: 'facebook', state: 'building', built_at: null, skipped_count: 0 }])),
    );
    const [google, facebook] = await screen.findAllByTestId('social-feed', {}, SLOW);
    if (!google || !facebook) throw new Error('two rows expected');
    expect(within(google).getByText('http://127.0.0.1:8082/s/demo/feeds/5.xml')).toBeInTheDocument();
    expect(within(google).getByText(/Google Merchant \(XML\) · Sam's Print Shop · all campaigns/)).toBeInTheDocument();
    expect(within(google).getByTestId('feed-built')).toHaveTextContent('120 items · 54 kB');
    expect(within(google).getByText('1 product left out until its mockup is ready.')).toBeInTheDocument();
    expect(within(google).getByText('Ready')).toBeInTheDocument();
    expect(within(facebook).getByText('Building')).toBeInTheDocument();
    expect(within(facebook).getByText('Not built yet')).toBeInTheDocument();
    expect(within(facebook).getByRole('button', { name: 'Download' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'New feed' })).toHaveAttribute('href', '/social-feed/update');
  });

  it('creates a feed of chosen campaigns, and shows a refusal by its field', async () => {
    let refuse = true;
    const calls = showPages('/social-feed/update', { '/social-feed/update/:id?': <SocialFeedEditPage />, '/social-feed': <p>the list</p> }, (url, init) => {
      if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([{ id: 1, name: "Sam's Print Shop" }]));
      if (url.pathname === '/api/seller/campaigns') return Promise.resolve(onePage([campaignSummary(10, 'Cats')]));
      if (init?.method === 'POST' && refuse) {
        refuse = false;
        const msg = 'Choose one or more of your campaigns, or list all the store\'s.';
        return Promise.resolve(json({ success: false, message: msg, data: null, errors: [{ field: 'campaign_ids', message: msg }] }, 422));
      }
      return Promise.resolve(json({ success: true, message: 'The feed was created. It is being built and will be ready in a minute.', data: feed, errors: [] }, 201));
    });
    await userEvent.type(await screen.findByLabelText(/Name/, {}, SLOW), 'Google Shopping');
    await userEvent.click(screen.getByRole('combobox', { name: /Store/ }));
    await userEvent.click(await screen.findByRole('option', { name: "Sam's Print Shop" }));
    await userEvent.click(screen.getByRole('combobox', { name: 'Campaigns' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Only the campaigns I choose' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create feed' }));
    expect(await screen.findByText("Choose one or more of your campaigns, or list all the store's.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Campaigns in the feed' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Cats' }, SLOW));
    await userEvent.click(screen.getByRole('button', { name: 'Create feed' }));
    expect(await screen.findByText('the list')).toBeInTheDocument();
    const post = calls.filter((c) => c.init?.method === 'POST').at(-1);
    expect(JSON.parse(post?.init?.body as string)).toEqual({ name: 'Google Shopping', store_id: 1, format: 'google', all_campaigns: false, campaign_ids: [10] });
  }, 60_000); // a dozen interactions, each taking seconds on a loaded machine

  it('shows a read-only feed to a team member without update_campaign', async () => {
    showPages(
      '/social-feed/update/5',
      { '/social-feed/update/:id?': <SocialFeedEditPage /> },
      (url) => Promise.resolve(url.pathname === '/api/seller/stores' ? onePage([]) : ok({ ...feed, campaigns: [] })),
      makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true }),
    );
    expect(await screen.findByRole('heading', { name: 'Google Shopping' }, SLOW)).toBeInTheDocument();
    expect(screen.getByLabelText(/Name/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save feed' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('combobox', { name: /Store/ })).toHaveValue("Sam's Print Shop"));
  });

  it('names files and sizes in words', () => {
    expect(feedFileName({ id: 5, name: 'Google Shopping!', format: 'google' })).toBe('Google-Shopping.xml');
    expect(feedFileName({ id: 6, name: '!!!', format: 'facebook' })).toBe('feed-6.csv');
    expect([fileSize(800), fileSize(54_321), fileSize(3_400_000)]).toEqual(['800 bytes', '54 kB', '3.4 MB']);
  });
});
