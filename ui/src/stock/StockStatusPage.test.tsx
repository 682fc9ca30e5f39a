import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StockChange, StockRow, TouchedProduct } from '../api/stock';
import { json, ok } from '../test/answers';
import { showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { StockStatusPage } from './StockStatusPage';

const row = (template_id: number, template_name: string, color: string, size: string, in_stock = true): StockRow => ({
  template_id,
  template_name,
  product_type: template_id === 1 ? 'tshirt' : 'mug',
  color,
  hex: color === 'Black' ? '#111111' : '#ffffff',
  size,
  in_stock,
  out_of_stock_since: in_stock ? null : '2026-11-26T10:00:00Z',
});

const grid: StockRow[] = [
  row(1, 'T-shirt', 'White', 'S'),
  row(1, 'T-shirt', 'White', 'M'),
  row(1, 'T-shirt', 'Black', 'S'),
  row(1, 'T-shirt', 'Black', 'M', false),
  row(2, 'Mug wrap', 'White', '11oz'),
  row(2, 'Mug wrap', 'White', '15oz'),
];

const touched: TouchedProduct[] = [
  { campaign_id: 9, campaign_name: 'Cat lovers', product_id: 31, product_name: 'T-shirt', out_of_stock: [{ color: 'Black', size: 'M' }] },
];

const history: StockChange[] = [
  { id: 1, template_id: 1, template_name: 'T-shirt', color: 'Black', size: 'M', in_stock: false, changed_by: 'Ada Admin', changed_at: '2026-11-26T10:00:00Z' },
];

afterEach(() => vi.unstubAllGlobals());

describe('StockStatusPage', () => {
  it('shows a seller the grid, filters it, and lists the campaigns touched, with no controls', async () => {
    const calls = showPages('/product/stock-status', { '/product/stock-status': <StockStatusPage /> }, (url) =>
      Promise.resolve(ok(url.pathname.endsWith('/campaigns') ? touched : grid)),
    );
    const [shirt, ...rest] = await screen.findAllByTestId('stock-template');
    const tables = [shirt!, ...rest];
    expect(tables.map((t) => within(t).getByRole('heading').textContent)).toEqual(['T-shirt', 'Mug wrap']);
    const black = within(shirt!).getByRole('row', { name: /Black/ });
    expect(within(black).getAllByText(/stock/).map((b) => b.textContent)).toEqual(['In stock', 'Out of stock']);
    expect(screen.getByTestId('out-count')).toHaveTextContent('1 colour and size out of stock.');
    const campaign = await screen.findByTestId('touched-campaign');
    expect(campaign).toHaveTextContent('Cat lovers');
    expect(campaign).toHaveTextContent('Black · M');
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark out of stock' })).toBeNull();
    expect(calls.map((c) => c.url.pathname).sort()).toEqual(['/api/seller/stock-status', '/api/seller/stock-status/campaigns']);

    await userEvent.click(screen.getByRole('switch', { name: 'Out of stock only' }));
    const left = screen.getAllByTestId('stock-template');
    expect(left).toHaveLength(1);
    expect(within(left[0]!).getAllByTestId('stock-cell').map((c) => c.dataset.variant)).toEqual(['T-shirt Black M']);
  });

  it('lets an admin mark several colours and sizes at once, and shows the history', async () => {
    const calls = showPages(
      '/system/stock-status',
      { '/system/stock-status': <StockStatusPage /> },
      (url, init) => {
        if (init?.method === 'PUT') return Promise.resolve(json({ success: true, message: 'The stock status was saved.', data: { changed: 2 }, errors: [] }));
        return Promise.resolve(ok(url.pathname.endsWith('/history') ? history : grid));
      },
      makeUser({ roles: ['admin'], timezone: 'UTC' }),
    );
    await userEvent.click(await screen.findByRole('checkbox', { name: 'T-shirt, White, S' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'T-shirt, Black, S' }));
    expect(screen.getByText('2 colours and sizes picked.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mark out of stock' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.init?.method === 'PUT')!;
    expect(put.url.pathname).toBe('/api/admin/stock-status');
    expect(JSON.parse(put.init?.body as string)).toEqual({
      changes: [
        { template_id: 1, color: 'White', size: 'S', in_stock: false },
        { template_id: 1, color: 'Black', size: 'S', in_stock: false },
      ],
    });
    expect(await screen.findByText('Pick colours and sizes in the tables below.')).toBeInTheDocument();
    const change = await screen.findByTestId('stock-change');
    expect(change).toHaveTextContent('Ada Admin');
    expect(change).toHaveTextContent('Out of stock');
    expect(screen.queryByTestId('touched-campaign')).toBeNull();
    expect(calls.some((c) => c.url.pathname.startsWith('/api/seller/'))).toBe(false);
  });
});
