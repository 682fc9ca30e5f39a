import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImportReport } from '../api/imports';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { ImportPage } from './ImportPage';

const counts = { refused: 1, duplicate: 1, pending: 0, queued: 1, processing: 0, completed: 1, failed: 0, stopped: 0 };

const report: ImportReport = {
  id: 4,
  name: 'spring.csv',
  file_name: 'spring.csv',
  rows: 4,
  created_at: '2026-04-15T10:00:00Z',
  counts,
  lines: [
    { line: 2, key: 'row-a', status: 'completed', message: '', record_id: 10, campaign_id: 77, campaign_name: 'Cat tee' },
    { line: 3, key: 'row-b', status: 'refused', message: 'No product of the catalogue is called "Hoody".', record_id: null, campaign_id: null, campaign_name: null },
    { line: 4, key: 'row-c', status: 'duplicate', message: 'Imported before, from line 2 of winter.csv.', record_id: null, campaign_id: null, campaign_name: null },
    { line: 5, key: 'row-d', status: 'queued', message: '', record_id: 11, campaign_id: null, campaign_name: null },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe('ImportPage', () => {
  it('imports a file, then shows the rows with a problem by line, and all of them on request', async () => {
    let refuse = true;
    const calls = showPages('/campaigns/import', { '/campaigns/import': <ImportPage /> }, (url, init) => {
      if (url.pathname === '/api/seller/campaigns/imports') return Promise.resolve(onePage([report]));
      if (url.pathname === '/api/seller/campaigns/imports/4') return Promise.resolve(ok(report));
      if (url.pathname === '/api/seller/campaigns/import' && refuse) {
        refuse = false;
        const msg = 'The file has no name column; the first row must name the columns (key, name, …).';
        return Promise.resolve(json({ success: false, message: msg, data: null, errors: [{ field: 'file', message: msg }] }, 422));
      }
      if (init?.method === 'POST') return Promise.resolve(json({ success: true, message: '1 of 4 rows were sent to the worker.', data: report, errors: [] }, 202));
      return Promise.resolve(json({ success: false, message: 'no', data: null, errors: [] }, 404));
    });
    expect(await screen.findByTestId('import-columns', {}, { timeout: 5000 })).toHaveTextContent('template_campaign');
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(screen.getByText('Choose a CSV or JSON file of campaigns.')).toBeInTheDocument();

    const file = new File(['name,artwork\n'], 'spring.csv', { type: 'text/csv' });
    await userEvent.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file);
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText(/The file has no name column/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));

    const rep = within(await screen.findByTestId('import-report', {}, { timeout: 5000 }));
    expect(rep.getAllByTestId('report-line').map((r) => r.textContent)).toEqual([
      '3RefusedNo product of the catalogue is called "Hoody".',
      '4Imported beforeImported before, from line 2 of winter.csv.',
    ]);
    expect(rep.getByTestId('count-refused')).toHaveTextContent('1 refused');
    await userEvent.click(rep.getByRole('switch', { name: 'Only rows with a problem' }));
    expect(rep.getAllByTestId('report-line')).toHaveLength(4);
    expect(rep.getByRole('link', { name: 'Cat tee' })).toHaveAttribute('href', '/campaigns/edit/77');
    const post = calls.filter((c) => c.init?.method === 'POST').at(-1)!;
    expect((post.init?.body as FormData).get('file')).toBeInstanceOf(File);
    await waitFor(() => expect(screen.getAllByTestId('import-row')).toHaveLength(1));
  }, 60_000);

  it('offers a member who may only read campaigns the reports, and no import', async () => {
    showPages('/campaigns/import?import=4', { '/campaigns/import': <ImportPage /> }, (url) =>
      Promise.resolve(url.pathname.endsWith('/imports') ? onePage([report]) : ok(report)),
      makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true }),
    );
    expect(await screen.findByTestId('import-report', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });
});
