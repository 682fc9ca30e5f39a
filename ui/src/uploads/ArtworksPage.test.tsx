import { Notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Artwork } from '../api/artworks';
import type { Folder } from '../api/folders';
import { json, ok } from '../test/answers';
import { showPages } from '../test/pages';
import { ArtworksPage } from './ArtworksPage';

const logo: Artwork = {
  id: 4,
  filePath: 'u/1/artworks/ab-logo.png',
  fileUrl: '/api/files/u/1/artworks/ab-logo.png',
  file_name: 'logo.png',
  type: '',
  status: 'ready',
  message: '',
  content_type: 'image/png',
  width: 2000,
  height: 2000,
  dpi_x: 300,
  dpi_y: 300,
  byte_size: 40960,
  stripped: false,
  created_at: '2026-11-28T10:00:00Z',
  folder_id: null,
  campaigns: [
    { id: 11, name: 'Autumn tee' },
    { id: 12, name: 'Summer tee' },
  ],
};
const logos: Folder = { id: 3, name: 'Logos', count: 0, created_at: '2026-11-28T09:00:00Z' };

const page = { '/personalized/artworks': (
  <>
    <Notifications />
    <ArtworksPage />
  </>
) };

afterEach(() => vi.unstubAllGlobals());

describe('ArtworksPage', { timeout: 40_000 }, () => {
  it('says where an artwork is used and shows a refused deletion in the dialog, linking the campaigns', async () => {
    const msg = 'This artwork cannot be deleted: it is used by the campaigns “Autumn tee” and “Summer tee”. Remove it from the campaigns first.';
    const calls = showPages('/personalized/artworks', page, (url, init) => {
      if (url.pathname === '/api/seller/artwork-folders') return Promise.resolve(ok([logos]));
      if (init?.method === 'DELETE') {
        return Promise.resolve(json({ success: false, message: msg, data: { campaigns: logo.campaigns, orders: 0, bulk: 0 }, errors: [{ message: msg }] }, 409));
      }
      if (init?.method === 'PUT') return Promise.resolve(json({ success: true, message: 'The artwork was moved.', data: logo, errors: [] }));
      return Promise.resolve(json({ data: [logo], total: 1, per_page: 24, current_page: 1, last_page: 1, from: 1, to: 1 }));
    });
    const card = await screen.findByTestId('upload-card');
    expect(within(card).getByTestId('artwork-usage')).toHaveTextContent('Used in 2 campaigns');

    await userEvent.click(within(card).getAllByLabelText('Folder of logo.png')[0]!);
    await userEvent.click(await screen.findByRole('option', { name: 'Logos' }));
    await waitFor(() => {
      const put = calls.find((c) => c.init?.method === 'PUT');
      expect(put?.url.pathname).toBe('/api/seller/artworks/4');
      expect(JSON.parse(put!.init!.body as string)).toEqual({ folder_id: 3 });
    });

    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete it!' }));
    const refusal = await within(dialog).findByTestId('artwork-refusal');
    expect(refusal).toHaveTextContent(msg);
    expect(within(refusal).getByRole('link', { name: 'Summer tee' })).toHaveAttribute('href', '/campaigns/edit/12');
    expect(within(dialog).queryByRole('button', { name: 'Yes, delete it!' })).not.toBeInTheDocument();
  });

  it('searches by name within the folder picked', async () => {
    const calls = showPages('/personalized/artworks', page, (url) =>
      Promise.resolve(
        url.pathname === '/api/seller/artwork-folders'
          ? ok([logos])
          : json({ data: [], total: 0, per_page: 24, current_page: 1, last_page: 1, from: null, to: null }),
      ),
    );
    await userEvent.click(await within(await screen.findByTestId('folder-list')).findByText('Logos'));
    await userEvent.type(screen.getByLabelText('Search artworks by name'), 'wave');
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/api/seller/artworks' && c.url.searchParams.get('q') === 'wave' &&
        c.url.searchParams.get('folder_id') === '3')).toBe(true),
    );
    expect(screen.getByText('Oops! No entries found.')).toBeInTheDocument();
  });
});
