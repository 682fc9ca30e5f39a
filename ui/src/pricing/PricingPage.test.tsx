import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeView, PricedCampaign, Quote } from '../api/pricing';
import { json, ok } from '../test/answers';
import { onePage, showPages, type Call } from '../test/pages';
import { makeUser } from '../test/users';
import { earningsRange } from './labels';
import { PricingPage } from './PricingPage';

const usd = (amount: number) => ({ amount, currency: 'USD' });

/** A T-shirt at 19.99 (2XL 21.99) made for 8.50 (2XL 10.50), paying a 4 % fee of at least 0.50. */
const shirtQuote: Quote = {
  mode: 'adjust_price',
  price: usd(1999),
  compare_at_price: usd(2499),
  base_cost: usd(850),
  extra_print_cost: usd(0),
  margin: usd(1149),
  sizes: [
    { size: 'S', cost: usd(850), price: usd(1999), fee: usd(80), earnings: usd(1069) },
    { size: '2XL', cost: usd(1050), price: usd(2199), fee: usd(88), earnings: usd(1061) },
  ],
};

const campaigns: PricedCampaign[] = [
  { id: 5, name: 'Cats', products: [{ product_id: 50, campaign_id: 5, campaign: 'Cats', name: 'T-shirt', status: 'active', quote: shirtQuote }] },
  {
    id: 6,
    name: 'Dogs',
    products: [{ product_id: 60, campaign_id: 6, campaign: 'Dogs', name: 'T-shirt', status: 'inactive', quote: { ...shirtQuote, mode: 'fixed_price' } }],
  },
];

const settings = { currency: 'USD', processing_fee: '4', processing_fee_min: usd(50), compare_price_rate: '25', modes: [] };
const store = { id: 3, name: 'Demo', slug: 'demo', currency: 'USD' };

const preview = (refused: boolean): ChangeView => ({
  currency: 'USD',
  changed: refused ? 1 : 2,
  refused: refused ? 1 : 0,
  rows: [
    {
      product_id: 50, campaign_id: 5, campaign: 'Cats', name: 'T-shirt', before: shirtQuote, problem: '',
      after: { ...shirtQuote, sizes: shirtQuote.sizes.map((s) => ({ ...s, price: usd(s.price.amount + 351), earnings: usd(s.earnings.amount + 337) })) },
    },
    {
      product_id: 60, campaign_id: 6, campaign: 'Dogs', name: 'T-shirt', before: shirtQuote, after: refused ? null : shirtQuote,
      problem: refused ? 'Size 2XL at $10.00 earns less than nothing: it costs $10.50 to make and $0.50 in fees.' : '',
    },
  ],
});

/** Serves the pricing calls; the bulk preview is refused while `refusing` says so. */
function serve(user = makeUser({ tags: ['pricing'] }), refusing = { value: false }): Call[] {
  return showPages(
    '/pricing',
    { '/pricing': <PricingPage /> },
    (url, init) => {
      switch (url.pathname) {
        case '/api/seller/stores':
          return Promise.resolve(onePage([store]));
        case '/api/seller/pricing/settings':
          return Promise.resolve(ok(settings));
        case '/api/seller/pricing':
          return Promise.resolve(onePage(campaigns));
        case '/api/seller/pricing/preview':
          return Promise.resolve(ok(preview(refusing.value)));
        case '/api/seller/pricing/apply':
          return Promise.resolve(json({ success: true, message: 'New prices for 2 products of 2 campaigns are saved.', data: preview(false), errors: [] }));
        case '/api/seller/pricing/products/50': {
          const body = JSON.parse(init?.body as string) as Record<string, unknown>;
          if (body.mode === 'custom_price' && !(body.sizes as Record<string, string>)['2XL']) {
            const msg = 'Give a price for size 2XL.';
            return Promise.resolve(json({ success: false, message: msg, data: null, errors: [{ field: 'sizes.2XL', message: msg }] }, 422));
          }
          return Promise.resolve(json({ success: true, message: 'The prices of Cats — T-shirt are saved.', data: campaigns[0]?.products[0], errors: [] }));
        }
      }
      return Promise.resolve(json({ success: false, message: `no route ${url.pathname}`, data: null, errors: [] }, 404));
    },
    user,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('PricingPage', () => {
  it("lists each product's mode, prices per size and earnings, with the fee settings", async () => {
    serve();
    const rows = await screen.findAllByTestId('priced-product', {}, { timeout: 5000 });
    expect(rows).toHaveLength(2);
    const cats = within(rows[0]!);
    expect(cats.getByText('Cost plus margin')).toBeInTheDocument();
    expect(cats.getByText('margin USD 11.49')).toBeInTheDocument();
    expect(cats.getByTestId('size-prices')).toHaveTextContent('S USD 19.99 · 2XL USD 21.99');
    expect(cats.getByText('USD 10.61 – USD 10.69')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('One price')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Not on sale')).toBeInTheDocument();
    expect(await screen.findByTestId('pricing-settings')).toHaveTextContent(
      'Processing fee 4% of what the buyer pays, at least USD 0.50 an order · compare-at prices 25% above the price',
    );
  });

  it('previews a change of the chosen campaigns, refuses it while a product would lose, and applies it', async () => {
    const refusing = { value: true };
    const calls = serve(undefined, refusing);
    await screen.findAllByTestId('priced-product', {}, { timeout: 5000 });
    expect(screen.getByRole('button', { name: 'Change prices' })).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Choose every campaign of the page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Change prices of 2 campaigns' }));
    await userEvent.click(screen.getByLabelText(/^Margin \(USD\)/));
    await userEvent.paste('15');
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByTestId('preview-problem')).toHaveTextContent('Dogs — T-shirt: Size 2XL at $10.00 earns less than nothing');
    expect(screen.getByRole('button', { name: 'Apply new prices to 1 product' })).toBeDisabled();
    const body = JSON.parse(calls.find((c) => c.url.pathname === '/api/seller/pricing/preview')?.init?.body as string) as unknown;
    expect(body).toEqual({ store_id: 3, campaign_ids: [5, 6], change: { kind: 'margin', value: '15' } });

    refusing.value = false;
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const firstRow = (await screen.findAllByTestId('preview-row'))[0]!;
    expect(firstRow).toHaveTextContent('USD 19.99USD 23.50');
    await userEvent.click(screen.getByRole('button', { name: 'Apply new prices to 2 products' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/seller/pricing/apply')).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('price-preview')).toBeNull());
    expect(screen.getByRole('button', { name: 'Change prices' })).toBeDisabled();
  }, 60_000);

  it("prices one product size by size and shows a refusal next to the size's field", async () => {
    const calls = serve();
    await screen.findAllByTestId('priced-product', {}, { timeout: 5000 });
    await userEvent.click(screen.getAllByRole('button', { name: 'Edit prices' })[0]!);
    await userEvent.click(screen.getByRole('radio', { name: /Price per size/ }));
    const twoXL = screen.getByLabelText('Price of size 2XL');
    await userEvent.clear(twoXL);
    await userEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    expect(await screen.findByText('Give a price for size 2XL.')).toBeInTheDocument();
    await userEvent.click(twoXL);
    await userEvent.paste('25');
    await userEvent.click(screen.getByRole('button', { name: 'Save prices' }));
    await waitFor(() => expect(calls.filter((c) => c.url.pathname === '/api/seller/pricing/products/50')).toHaveLength(2));
    const sent = JSON.parse(calls.filter((c) => c.url.pathname === '/api/seller/pricing/products/50').at(-1)?.init?.body as string) as unknown;
    expect(sent).toEqual({ store_id: 3, mode: 'custom_price', sizes: { S: '19.99', '2XL': '25' } });
  }, 60_000);

  it('is read-only without update_campaign', async () => {
    serve(makeUser({ tags: ['pricing'], roles: ['team'], permissions: ['get_campaigns'], access_user: true }));
    await screen.findAllByTestId('priced-product', {}, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: /Change prices/ })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    await userEvent.click(screen.getAllByRole('button', { name: 'Sizes' })[0]!);
    expect(await screen.findByTestId('size-table')).toHaveTextContent('2XLUSD 10.50USD 21.99USD 0.88USD 10.61');
    vi.unstubAllGlobals();
  });

  it('tells a seller without the pricing tag how to get it', async () => {
    const calls = serve(makeUser());
    expect(await screen.findByTestId('pricing-locked')).toHaveTextContent('ask Pressroom support to turn it on');
    expect(calls).toHaveLength(0);
  });

  it('writes the range of earnings', () => {
    expect(earningsRange(shirtQuote)).toBe('USD 10.61 – USD 10.69');
    expect(earningsRange({ ...shirtQuote, sizes: [shirtQuote.sizes[0]!] })).toBe('USD 10.69');
  });
});
