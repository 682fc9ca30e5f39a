import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { json } from '../test/answers';
import { renderWithMantine } from '../test/render';
import { BulkImportPage } from './BulkImportPage';

// The upload of one file to storage; here the fake PNG is refused the way the bff's check refuses it.
vi.mock('../uploads/uploader', () => ({
  uploadFile: vi.fn((_api: unknown, file: File) =>
    file.name === 'fake.png'
      ? Promise.reject(new Error('The file is not a PNG, JPEG or WebP image.'))
      : Promise.resolve({ filePath: `u/7/bulk/${file.name}` }),
  ),
}));

const envelope = (data: unknown) => json({ success: true, message: '', errors: [], data });

const TEMPLATE = {
  id: 3,
  name: 'Neon cats',
  products: [],
};

function serve() {
  const calls: { path: string; query: URLSearchParams; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      calls.push({ path: url.pathname, query: url.searchParams, body: init.body ? JSON.parse(init.body as string) : undefined });
      if (url.pathname === '/api/seller/bulk-campaigns/multi-print-spaces/templates') {
        return Promise.resolve(
          envelope([
            { id: 3, name: 'Neon cats', used: true, made: false },
            { id: 40, name: 'Neon cats', used: false, made: true },
          ]),
        );
      }
      if (url.pathname === '/api/seller/bulk-campaigns/multi-print-spaces/records') {
        return Promise.resolve(
          envelope({
            records: [
              {
                id: 11,
                bulk_upload_id: 5,
                template_campaign_id: 3,
                template_campaign_name: 'Neon cats',
                campaign_id: null,
                designs: '[]',
                type: 'regular_multi_space',
                status: 'queued',
                message: '',
                step: '',
                attempts: 1,
                results: null,
                created_at: '',
                updated_at: '',
              },
            ],
            bulk_upload: { id: 5, name: 'Drop', template_campaign_id: 3, created_at: '', total: 1, counts: { queued: 1 } },
          }),
        );
      }
      if (url.pathname === '/api/seller/campaigns/3') return Promise.resolve(envelope(TEMPLATE));
      return Promise.resolve(json({ success: false, message: `no route ${url.pathname}`, data: null, errors: [] }, 404));
    }),
  );
  return calls;
}

function show() {
  const calls = serve();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/bulk-campaigns/multi-print-spaces/import']}>
        <Routes>
          <Route path="/bulk-campaigns/multi-print-spaces/import" element={<BulkImportPage />} />
          <Route path="/bulk-campaigns/multi-print-spaces" element={<p>records</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { calls, user: userEvent.setup({ delay: null }) };
}

afterEach(() => vi.unstubAllGlobals());

// jsdom has no FontFaceSet; the autosized text area listens on it.
beforeAll(() => {
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener() {}, removeEventListener() {} } });
  }
});

describe('BulkImportPage', { timeout: 20_000 }, () => {
  it('searches the templates on the server, the used template first', async () => {
    const { calls, user } = show();
    await user.type(screen.getByRole('combobox', { name: 'Template campaign' }), 'Neon cats');
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/templates') && c.query.get('q') === 'Neon cats')).toBe(true));
    const options = await screen.findAllByRole('option');
    expect(options[0]).toHaveTextContent('Neon cats (#3), template');
    expect(options[1]).toHaveTextContent('Neon cats (#40), made by bulk');
  });

  it('lists every skipped file with its reason and says the records agree in number', async () => {
    const { calls, user } = show();
    await user.click(screen.getByRole('button', { name: 'Upload and create records' }));
    expect(await screen.findByText('Choose the template campaign.')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Template campaign' }));
    await user.click(await screen.findByRole('option', { name: /#3/ }));
    // The stale refusal goes once a template is chosen.
    expect(screen.queryByText('Choose the template campaign.')).not.toBeInTheDocument();

    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    await user.upload(input!, [new File(['not a png'], 'fake.png', { type: 'image/png' }), new File(['png'], 'real.png', { type: 'image/png' })]);
    await user.click(screen.getByRole('button', { name: 'Upload and create records' }));

    const report = await screen.findByTestId('bulk-skipped');
    expect(within(report).getByText('1 file skipped')).toBeInTheDocument();
    expect(within(report).getByText(/1 record sent to the worker\./)).toBeInTheDocument();
    expect(report).toHaveTextContent('fake.png: The file is not a PNG, JPEG or WebP image.');
    expect(within(report).getByRole('link', { name: 'Open the import' })).toHaveAttribute('href', '/bulk-campaigns/multi-print-spaces?bulk_upload_id=5');
    const create = calls.find((c) => c.path.endsWith('/records'));
    expect((create?.body as { records: string[] }).records).toEqual([JSON.stringify([{ new_url: 'u/7/bulk/real.png' }])]);
  });
});
