import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CrossSellRule } from '../api/customers';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { CrossSellingPage } from './CrossSellingPage';
import { campaignSummary } from '../test/campaigns';

const rule: CrossSellRule = {
  id: 3,
  campaign: { id: 10, name: 'Cats' },
  targets: [
    { id: 11, name: 'Dogs' },
    { id: 12, name: 'Birds' },
  ],
  orders: 1,
  created_at: '2026-04-15T10:00:00Z',
  updated_at: '2026-04-15T10:00:00Z',
};

const campaign = campaignSummary;

afterEach(() => vi.unstubAllGlobals());

describe('CrossSellingPage', () => {
  it('lists rules with their suggestions and the orders that followed, and edits one', async () => {
    const calls = showPages('/cross-selling', { '/cross-selling': <CrossSellingPage /> }, (url, init) => {
      if (url.pathname === '/api/seller/campaigns') return Promise.resolve(onePage([campaign(10, 'Cats'), campaign(11, 'Dogs'), campaign(12, 'Birds')]));
      if (init?.method === 'PUT') return Promise.resolve(ok(rule));
      return Promise.resolve(onePage([rule]));
    });
    const row = await screen.findByTestId('cross-sell-rule');
    expect(within(row).getByText('Cats')).toBeInTheDocument();
    expect(within(row).getByText('Dogs')).toBeInTheDocument();
    expect(within(row).getByText('1 order')).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save rule' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.init?.method === 'PUT')!;
    expect(put.url.pathname).toBe('/api/seller/cross-selling/3');
    expect(JSON.parse(put.init?.body as string)).toEqual({ campaign_id: 10, target_ids: [11, 12] });
  });

  it('shows the refusal next to its field', async () => {
    showPages('/cross-selling', { '/cross-selling': <CrossSellingPage /> }, (url, init) => {
      if (url.pathname === '/api/seller/campaigns') return Promise.resolve(onePage([campaign(10, 'Cats')]));
      if (init?.method === 'POST')
        return Promise.resolve(
          json({ success: false, message: 'Choose from 1 to 8 of your campaigns to suggest.', data: null, errors: [{ field: 'target_ids', message: 'Choose from 1 to 8 of your campaigns to suggest.' }] }, 422),
        );
      return Promise.resolve(onePage([]));
    });
    await userEvent.click(await screen.findByRole('button', { name: 'New rule' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save rule' }));
    expect(await within(dialog).findByText('Choose from 1 to 8 of your campaigns to suggest.')).toBeInTheDocument();
  });
});
