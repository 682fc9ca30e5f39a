import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OnPromotion, Promotion } from '../api/promotions';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { OnPromotionPage } from './OnPromotionPage';
import { PromotionsPage } from './PromotionsPage';

const promotion: Promotion = {
  id: 4,
  code: 'SPRING25',
  kind: 'discount_with_percent',
  percent: 25,
  starts_at: null,
  ends_at: '2026-12-31T22:00:00Z',
  usage_limit: 100,
  per_buyer_limit: 1,
  min_order: { amount: 3000, currency: 'USD' },
  applies_to: 'stores',
  store_ids: [7],
  campaign_ids: [],
  disabled: false,
  status: 'active',
  uses: 3,
  sales: [{ revenue: { amount: 12345, currency: 'USD' }, discount: { amount: 2500, currency: 'USD' } }],
  stores: [{ id: 7, name: "Sam's Print Shop" }],
  campaigns: [],
  created_at: '2026-11-01T10:00:00Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('PromotionsPage', () => {
  it('lists codes with their uses, revenue and state, and disables one', async () => {
    const calls = showPages('/promotions', { '/promotions': <PromotionsPage /> }, (_url, init) => {
      if (init?.method === 'POST') return Promise.resolve(ok({ ...promotion, disabled: true, status: 'disabled' }));
      return Promise.resolve(onePage([promotion]));
    });
    const row = await screen.findByTestId('promotion');
    for (const text of ['SPRING25', '25% off', "Sam's Print Shop", '3 of 100', 'Active', 'Until Jan 1, 2027, 12:00 AM']) {
      expect(within(row).getByText(text)).toBeInTheDocument();
    }
    expect(within(row).getByText(/123\.45/)).toBeInTheDocument();
    expect(within(row).getByText(/Orders from/)).toHaveTextContent('30.00');
    // A used code is kept for its history: no Delete.
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
    await userEvent.click(within(row).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.init?.method === 'POST')!.url.pathname).toBe('/api/promotions/4/disable');
  });

  it('creates a code and shows a refusal next to its field', async () => {
    const calls = showPages('/promotions', { '/promotions': <PromotionsPage /> }, (_url, init) => {
      if (init?.method === 'POST') {
        const body = JSON.parse(init.body as string) as { code: string };
        if (body.code === 'AB')
          return Promise.resolve(
            json({ success: false, message: 'Use 3 to 32 letters, digits, dashes or underscores.', data: null, errors: [{ field: 'code', message: 'Use 3 to 32 letters, digits, dashes or underscores.' }] }, 422),
          );
        return Promise.resolve(ok(promotion));
      }
      return Promise.resolve(onePage([]));
    });
    await userEvent.click(await screen.findByRole('button', { name: 'New promotion' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Code'), 'AB');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save promotion' }));
    expect(await within(dialog).findByText('Use 3 to 32 letters, digits, dashes or underscores.')).toBeInTheDocument();

    await userEvent.clear(within(dialog).getByLabelText('Code'));
    await userEvent.type(within(dialog).getByLabelText('Code'), 'WELCOME5');
    await userEvent.type(within(dialog).getByLabelText('Minimum order'), '25');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save promotion' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = calls.filter((c) => c.init?.method === 'POST').at(-1)!;
    expect(post.url.pathname).toBe('/api/promotions');
    expect(JSON.parse(post.init?.body as string)).toEqual({
      code: 'WELCOME5',
      kind: 'discount_with_percent',
      percent: 10,
      starts_at: null,
      ends_at: null,
      usage_limit: null,
      per_buyer_limit: null,
      min_order: '25',
      min_order_currency: 'USD',
      applies_to: 'all',
      store_ids: [],
      campaign_ids: [],
    });
  });
});

describe('OnPromotionPage', () => {
  it('lists the campaigns with their active codes', async () => {
    const row: OnPromotion = { id: 10, name: 'Cats', promotions: [{ id: 4, code: 'FREESHIP', kind: 'free', percent: 0 }] };
    showPages('/on-promotion', { '/on-promotion': <OnPromotionPage /> }, () => Promise.resolve(onePage([row])));
    const tr = await screen.findByTestId('on-promotion');
    expect(within(tr).getByText('Cats')).toBeInTheDocument();
    expect(within(tr).getByText('FREESHIP · Free shipping')).toBeInTheDocument();
  });
});
