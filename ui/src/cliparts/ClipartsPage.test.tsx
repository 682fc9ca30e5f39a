import { Notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Clipart } from '../api/cliparts';
import type { Folder } from '../api/folders';
import { json, ok } from '../test/answers';
import { showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { ClipartsPage } from './ClipartsPage';

const star: Clipart = {
  id: 7,
  name: 'Gold star',
  folder_id: 2,
  key: 'u/1/cliparts/ab-star.png',
  width: 4000,
  height: 1000,
  format: 'svg',
  status: 'ready',
  message: '',
  byte_size: 48211,
  created_at: '2026-11-28T10:00:00Z',
  file_url: '/api/files/u/1/cliparts/ab-star.png',
  thumbnail_url: '/api/files/u/1/cliparts/ab-star.png?variant=thumb',
};
const broken: Clipart = {
  ...star,
  id: 8,
  name: 'Broken',
  folder_id: null,
  format: 'png',
  status: 'rejected',
  message: 'The image is damaged or incomplete.',
  width: null,
  height: null,
};
const animals: Folder = { id: 2, name: 'Animals', count: 1, created_at: '2026-11-28T09:00:00Z' };

const page = { '/personalized/cliparts': (
  <>
    <Notifications />
    <ClipartsPage />
  </>
) };

const list = (rows: Clipart[]) => json({ data: rows, total: rows.length, per_page: 24, current_page: 1, last_page: 1, from: 1, to: rows.length });

afterEach(() => vi.unstubAllGlobals());

describe('ClipartsPage', { timeout: 40_000 }, () => {
  it('lists the cliparts of the folder picked, searched by name, each with its state in words', async () => {
    const calls = showPages('/personalized/cliparts', page, (url) => {
      if (url.pathname === '/api/seller/clipart-folders') return Promise.resolve(ok([animals]));
      const folder = url.searchParams.get('folder_id');
      return Promise.resolve(list(folder === '2' ? [star] : [star, broken]));
    });
    const cards = await screen.findAllByTestId('clipart-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText('Ready')).toBeInTheDocument();
    expect(within(cards[0]!).getByTestId('clipart-meta')).toHaveTextContent('SVG · 4000×1000 px (drawn from the SVG)');
    expect(cards[1]).toHaveAttribute('data-status', 'rejected');
    expect(within(cards[1]!).getByTestId('clipart-message')).toHaveTextContent('The image is damaged or incomplete.');

    await userEvent.click(await within(await screen.findByTestId('folder-list')).findByText('Animals'));
    await waitFor(() => expect(screen.getAllByTestId('clipart-card')).toHaveLength(1));
    await userEvent.type(screen.getByLabelText('Search cliparts by name'), 'star');
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/api/seller/cliparts' && c.url.searchParams.get('q') === 'star' &&
        c.url.searchParams.get('folder_id') === '2')).toBe(true),
    );
    await userEvent.click(within(screen.getByTestId('folder-list')).getByText('Not in a folder'));
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('folder_id') === '0')).toBe(true));
  });

  it('uploads into the folder shown and shows the bff’s refusal of a hostile SVG where the seller looks', async () => {
    const calls = showPages('/personalized/cliparts', page, (url, init) => {
      if (url.pathname === '/api/seller/clipart-folders') return Promise.resolve(ok([animals]));
      if (init?.method === 'POST') {
        const file = (init.body as FormData).get('file') as File;
        if (file.name === 'evil.svg') {
          const msg = 'The SVG contains a script (<script>), which is not accepted.';
          return Promise.resolve(json({ success: false, message: msg, data: null, errors: [{ field: 'file', message: msg }] }, 422));
        }
        return Promise.resolve(json({ success: true, message: 'The clipart was uploaded.', data: { ...star, status: 'pending' }, errors: [] }, 201));
      }
      return Promise.resolve(list([star]));
    });
    await userEvent.click(await within(await screen.findByTestId('folder-list')).findByText('Animals'));
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File(['<svg/>'], 'evil.svg', { type: 'image/svg+xml' }));
    expect(await screen.findByTestId('clipart-refusal')).toHaveTextContent('The SVG contains a script (<script>), which is not accepted.');
    await userEvent.upload(input, new File(['<svg/>'], 'star.svg', { type: 'image/svg+xml' }));
    expect(await screen.findByText('The clipart was uploaded.')).toBeInTheDocument();
    expect(screen.queryByTestId('clipart-refusal')).not.toBeInTheDocument();
    const posts = calls.filter((c) => c.init?.method === 'POST');
    expect(posts.map((c) => (c.init!.body as FormData).get('folder_id'))).toEqual(['2', '2']);
  });

  it('moves a clipart to another folder and deletes after the confirmation', async () => {
    const calls = showPages('/personalized/cliparts', page, (url, init) => {
      if (url.pathname === '/api/seller/clipart-folders') return Promise.resolve(ok([animals]));
      if (init?.method === 'PUT') return Promise.resolve(json({ success: true, message: 'The clipart was saved.', data: star, errors: [] }));
      if (init?.method === 'DELETE') return Promise.resolve(json({ success: true, message: 'The clipart was deleted.', data: { in_use: false }, errors: [] }));
      return Promise.resolve(list([broken]));
    });
    const card = await screen.findByTestId('clipart-card');
    await userEvent.click(within(card).getAllByLabelText('Folder of Broken')[0]!);
    await userEvent.click(await screen.findByRole('option', { name: 'Animals' }));
    await waitFor(() => {
      const put = calls.find((c) => c.init?.method === 'PUT');
      expect(put?.url.pathname).toBe('/api/seller/cliparts/8');
      expect(JSON.parse(put!.init!.body as string)).toEqual({ name: 'Broken', folder_id: 2 });
    });
    await userEvent.click(within(card).getByLabelText('Delete Broken'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Campaigns that use it keep it');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete it!' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'DELETE' && c.url.pathname === '/api/seller/cliparts/8')).toBe(true));
  });

  it('is read-only for a team member who may only read campaigns', async () => {
    showPages(
      '/personalized/cliparts',
      page,
      (url) => Promise.resolve(url.pathname === '/api/seller/clipart-folders' ? ok([animals]) : list([star])),
      makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true }),
    );
    expect(await screen.findByTestId('clipart-card')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload clipart' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New folder' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Delete Gold star')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Folder of Gold star')).not.toBeInTheDocument();
  });
});
