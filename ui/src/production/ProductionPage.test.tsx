import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueueItem } from '../api/production';
import { json, ok } from '../test/answers';
import { showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { ProductionPage } from './ProductionPage';

const item = (change: Partial<QueueItem> = {}): QueueItem => ({
  order_id: 7,
  order_number: '1001',
  order_status: 'pending',
  seller_name: 'Sam Seller',
  item_id: 21,
  product_name: 'T-shirt',
  color: 'Black',
  size: 'L',
  quantity: 2,
  print_files: 2,
  created_at: '2026-04-15T23:30:00Z',
  ...change,
});

const page = (data: QueueItem[]) => json({ data, total: data.length, per_page: 25, current_page: 1, last_page: 1, from: 1, to: data.length });

const show = (answer: Parameters<typeof showPages>[2]) =>
  showPages('/system/production', { '/system/production': <ProductionPage /> }, answer, makeUser({ roles: ['admin'], timezone: 'UTC' }));

afterEach(() => vi.unstubAllGlobals());

describe('ProductionPage', () => {
  it('lists the items ready to print and moves a pending order into production', async () => {
    let status = 'pending';
    const calls = show((_url, init) => {
      if (init?.method === 'POST') {
        status = 'processing';
        return Promise.resolve(json({ success: true, message: 'In production.', data: {}, errors: [] }));
      }
      return Promise.resolve(page([item({ order_status: status })]));
    });
    const row = await screen.findByTestId('production-item');
    expect(row).toHaveTextContent('#1001');
    expect(row).toHaveTextContent('Sam Seller');
    expect(row).toHaveTextContent('Black · L');
    expect(row).toHaveTextContent('Apr 15, 2026');
    expect(screen.getByText('1 item ready to print')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Start production' }));
    await waitFor(() => expect(within(screen.getByTestId('production-item')).queryByRole('button', { name: 'Start production' })).toBeNull());
    expect(calls.find((c) => c.init?.method === 'POST')?.url.pathname).toBe('/api/admin/orders/7/actions/produce');
  });

  it('ships one item with its tracking, and shows a refused field next to it', async () => {
    const bodies: unknown[] = [];
    show((_url, init) => {
      if (init?.method === 'POST') {
        bodies.push(JSON.parse(init.body as string));
        if (bodies.length === 1) {
          const message = 'Enter the carrier.';
          return Promise.resolve(json({ success: false, message, data: null, errors: [{ field: 'carrier', message }] }, 422));
        }
        return Promise.resolve(json({ success: true, message: 'Shipped.', data: {}, errors: [] }));
      }
      return Promise.resolve(page([item()]));
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Ship' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ship T-shirt of order #1001' });
    await userEvent.type(within(dialog).getByLabelText('Tracking number'), 'JJD01');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ship' }));
    expect(await within(dialog).findByText('Enter the carrier.')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('Carrier'), 'DHL');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ship' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies[1]).toEqual({ carrier: 'DHL', tracking_number: 'JJD01', tracking_url: '', item_ids: [21] });
  });

  it('uploads a tracking CSV and reports each line', async () => {
    const sent: string[] = [];
    show((_url, init) => {
      if (init?.method === 'POST') {
        sent.push((JSON.parse(init.body as string) as { csv: string }).csv);
        return Promise.resolve(
          ok([
            { line: 2, order_number: '1001', ok: true, message: 'Shipped.' },
            { line: 3, order_number: '999', ok: false, message: 'No open order has this number.' },
          ]),
        );
      }
      return Promise.resolve(page([item()]));
    });
    await screen.findByTestId('production-item');
    const csv = 'order_number,carrier,tracking_number\n1001,DHL,JJD01\n999,DHL,X\n';
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, new File([csv], 'tracking.csv', { type: 'text/csv' }));
    expect(await screen.findByTestId('tracking-summary')).toHaveTextContent('1 of 2 lines shipped.');
    expect(screen.getAllByTestId('tracking-line')[1]).toHaveTextContent('No open order has this number.');
    expect(sent).toEqual([csv]);
  });

  it('downloads the print files of the chosen day', async () => {
    const calls = show((url) => {
      if (url.pathname === '/api/admin/production/batch.zip') return Promise.resolve(new Response(new Blob(['zip'])));
      return Promise.resolve(page([item()]));
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    await screen.findByTestId('production-item');
    await userEvent.type(screen.getByLabelText('Day of the orders'), '2026-04-15');
    await userEvent.click(screen.getByRole('button', { name: 'Download print files' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/admin/production/batch.zip')).toBe(true));
    expect(calls.find((c) => c.url.pathname === '/api/admin/production/batch.zip')?.url.searchParams.get('date')).toBe('2026-04-15');
  });
});
