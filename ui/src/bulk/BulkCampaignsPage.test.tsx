import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BulkUpload } from '../api/bulk';
import { meQuery } from '../session/queries';
import { json } from '../test/answers';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { BulkCampaignsPage } from './BulkCampaignsPage';

const upload = (id: number, name: string, counts: Record<string, number>): BulkUpload => ({
  id,
  name,
  template_campaign_id: 7,
  created_at: '2026-11-22T06:00:00Z',
  total: Object.values(counts).reduce((a, b) => a + b, 0),
  counts,
});

const page = (data: unknown[]) => json({ data, total: data.length, per_page: 15, current_page: 1, last_page: 1, from: 1, to: data.length });

function serve(uploads: BulkUpload[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const path = new URL(input, 'http://localhost').pathname;
      if (path === '/api/seller/bulk-campaigns/multi-print-spaces/uploads') return Promise.resolve(page(uploads));
      if (path === '/api/seller/bulk-campaigns') return Promise.resolve(page([]));
      return Promise.resolve(json({ success: false, message: `no route ${path}`, data: null, errors: [] }, 404));
    }),
  );
}

function show(permissions: string[] | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(
    meQuery.queryKey,
    permissions === null ? makeUser() : makeUser({ roles: ['team'], permissions, access_user: true }),
  );
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/bulk-campaigns']}>
        <BulkCampaignsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('BulkCampaignsPage', { timeout: 20_000 }, () => {
  it("lists the seller's bulk uploads, each leading to its records", async () => {
    serve([upload(9, 'Summer drop', { completed: 1 }), upload(8, 'Spring drop', { completed: 3, failed: 1, queued: 1 })]);
    show();
    const rows = await screen.findAllByTestId('bulk-upload-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'Summer drop' })).toHaveAttribute('href', '/bulk-campaigns/multi-print-spaces?bulk_upload_id=9');
    expect(within(rows[0]!).getByText('1 of 1 record completed')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('3 of 5 records completed, 1 failed')).toBeInTheDocument();
    expect(screen.queryByText('Oops! No entries found.')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Import artworks' })[0]).toHaveAttribute('href', '/bulk-campaigns/multi-print-spaces/import');
  });

  it('leads a seller without uploads to the import', async () => {
    serve([]);
    show();
    const empty = await screen.findByTestId('bulk-uploads-empty');
    expect(within(empty).getByRole('link', { name: 'Import artworks' })).toBeInTheDocument();
    expect(screen.queryByText('Oops! No entries found.')).not.toBeInTheDocument();
  });

  it('offers no import to a team member who may only read campaigns', async () => {
    serve([upload(9, 'Summer drop', { completed: 1 })]);
    show(['get_campaigns']);
    await screen.findAllByTestId('bulk-upload-row');
    expect(screen.queryByRole('link', { name: 'Import artworks' })).not.toBeInTheDocument();
  });
});
