import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BulkRecord } from '../api/bulk';
import { meQuery } from '../session/queries';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { BulkRecordsPage } from './BulkRecordsPage';

const record = (id: number, status: BulkRecord['status'], message = ''): BulkRecord => ({
  id,
  bulk_upload_id: 3,
  template_campaign_id: 7,
  template_campaign_name: 'Summer tee',
  campaign_id: status === 'completed' ? 40 + id : null,
  designs: JSON.stringify([{ new_url: `u/1/bulk/art-${id}.png`, print_space: 'front' }]),
  type: 'regular_multi_space',
  status,
  message,
  step: status === 'failed' ? 'INVALID_DESIGN' : '',
  attempts: 1,
  results: null,
  created_at: '2026-11-22T06:00:00Z',
  updated_at: '2026-11-22T06:00:00Z',
});

const ROWS = [{ ...record(12, 'completed'), quality: 'low' as const }, record(11, 'failed', 'Design url is invalid')];

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** The bff's answers; every request is recorded with its query. */
function serve() {
  const calls: { method: string; path: string; query: URLSearchParams; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      calls.push({ method: init.method ?? 'GET', path: url.pathname, query: url.searchParams, body: init.body ? JSON.parse(init.body as string) : undefined });
      if (url.pathname === '/api/seller/bulk-campaigns/multi-print-spaces') {
        return Promise.resolve(json({ data: ROWS, total: 2, per_page: 15, current_page: 1, last_page: 1, from: 1, to: 2 }));
      }
      if (url.pathname === '/api/seller/bulk-campaigns/multi-print-spaces/uploads/3') {
        return Promise.resolve(
          json({
            success: true,
            message: '',
            errors: [],
            data: { id: 3, name: 'Spring drop', template_campaign_id: 7, created_at: '', total: 2, counts: { completed: 1, failed: 1 }, qualities: { low: 1, normal: 0, good: 0 } },
          }),
        );
      }
      if (url.pathname === '/api/seller/bulk-campaigns/multi-print-spaces/retry') {
        return Promise.resolve(json({ success: true, message: '', errors: [], data: [{ id: 11, ok: true, status: 'queued' }] }));
      }
      if (url.pathname === '/api/seller/bulk-campaigns/multi-print-spaces/stop-all') {
        return Promise.resolve(json({ success: true, message: '', errors: [], data: [] }));
      }
      return Promise.resolve(new Response('{}', { status: 404 }));
    }),
  );
  return calls;
}

function setup(path = '/bulk-campaigns/multi-print-spaces', permissions: string[] | null = null) {
  const calls = serve();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, permissions === null ? makeUser() : makeUser({ roles: ['team'], permissions, access_user: true }));
  renderWithMantine(
    <QueryClientProvider client={client}>
      <Notifications />
      <MemoryRouter initialEntries={[path]}>
        <BulkRecordsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { calls, user: userEvent.setup({ delay: null }) };
}

afterEach(() => vi.unstubAllGlobals());

describe('BulkRecordsPage', { timeout: 20_000 }, () => {
  it('lists the records with their query and shows why a record failed', async () => {
    const { calls } = setup();
    const rows = await screen.findAllByTestId('bulk-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[1]!).getByText('Design url is invalid')).toBeInTheDocument();
    // The artwork by its file name (the storage path in its tooltip), the status in words.
    expect(within(rows[1]!).getByText('art-11.png')).toHaveAttribute('title', 'u/1/bulk/art-11.png');
    expect(within(rows[1]!).getByText('Failed')).toBeInTheDocument();
    const list = calls.find((c) => c.path.endsWith('/multi-print-spaces'));
    expect(list?.query.get('per_page')).toBe('15');
    expect(list?.query.get('order_by')).toBe('id:desc');
  });

  it('retries the ticked rows by id', async () => {
    const { calls, user } = setup();
    await screen.findAllByTestId('bulk-row');
    await user.click(screen.getByRole('checkbox', { name: 'Select record 11' }));
    await user.click(screen.getByRole('button', { name: 'Retry (1)' }));
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/retry'))).toBe(true));
    expect(calls.find((c) => c.path.endsWith('/retry'))?.body).toEqual({ ids: [11] });
  });

  it('shows the progress of an import', async () => {
    setup('/bulk-campaigns/multi-print-spaces?bulk_upload_id=3');
    const summary = await screen.findByTestId('bulk-upload-summary');
    expect(within(summary).getByText('Spring drop')).toBeInTheDocument();
    expect(within(summary).getByText('1 of 2 completed, 1 failed')).toBeInTheDocument();
    expect(within(summary).getByTestId('bulk-upload-resolution')).toHaveTextContent('Print resolution: 1 record low');
  });

  it('flags a record whose print files are low resolution, and filters by it', async () => {
    const { calls, user } = setup();
    const rows = await screen.findAllByTestId('bulk-row');
    expect(within(rows[0]!).getByTestId('bulk-quality')).toHaveTextContent('Low');
    expect(within(rows[1]!).queryByTestId('bulk-quality')).not.toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Print resolution' }));
    await user.click(await screen.findByRole('option', { name: 'Low resolution' }));
    await waitFor(() => expect(calls.some((c) => c.query.get('quality[]') === 'low')).toBe(true));
  });

  it('says so when stop-all found nothing to stop', async () => {
    const { user } = setup();
    await screen.findAllByTestId('bulk-row');
    await user.click(screen.getByRole('button', { name: 'Stop all' }));
    expect(await screen.findByText('Stop all: no record could be stopped.')).toBeInTheDocument();
    expect(screen.queryByText(/0 of 0 records/)).not.toBeInTheDocument();
  });

  it('gives a team member who may only read campaigns no actions', async () => {
    setup('/bulk-campaigns/multi-print-spaces', ['get_campaigns']);
    await screen.findAllByTestId('bulk-row');
    expect(screen.queryByRole('button', { name: 'Stop all' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Import artworks' })).not.toBeInTheDocument();
  });
});
