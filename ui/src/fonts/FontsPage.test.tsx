import { Notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Font } from '../api/fonts';
import { json, ok } from '../test/answers';
import { showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { FontsPage } from './FontsPage';

const lato: Font = {
  id: 2,
  family: 'Lato',
  style: 'Regular',
  full_name: 'Lato Regular',
  weight: 400,
  italic: false,
  format: 'ttf',
  size: 661592,
  platform: true,
  font_url: 'fonts/platform/Lato-Regular.ttf',
  url: '/api/fonts/platform/Lato-Regular.ttf',
  created_at: '2026-11-26T10:00:00Z',
};
const mono: Font = {
  ...lato,
  id: 9,
  family: 'Liberation Mono',
  full_name: 'Liberation Mono',
  format: 'woff',
  size: 8656,
  platform: false,
  font_url: 'fonts/3/abc.ttf',
  url: '/api/fonts/3/abc.ttf',
};

const page = { '/personalized/fonts': (
  <>
    <Notifications />
    <FontsPage />
  </>
) };

afterEach(() => vi.unstubAllGlobals());

describe('FontsPage', () => {
  it('lists the seller’s fonts and the included ones, each previewed with the sample text', async () => {
    showPages('/personalized/fonts', page, () => Promise.resolve(ok([lato, mono])));
    const cards = await screen.findAllByTestId('font-card');
    expect(cards.map((c) => c.getAttribute('data-font-url'))).toEqual(['fonts/3/abc.ttf', 'fonts/platform/Lato-Regular.ttf']);
    expect(within(cards[0]!).getByText('Yours')).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Regular · weight 400 · WOFF · 8 KB')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Included')).toBeInTheDocument();
    expect(within(cards[1]!).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Preview text'), 'Anna 2026');
    for (const sample of screen.getAllByTestId('font-sample')) expect(sample).toHaveTextContent('Anna 2026');
  });

  it('uploads a font, shows the bff’s refusal, and deletes after the confirmation', async () => {
    let uploaded = false;
    const calls = showPages('/personalized/fonts', page, (_url, init) => {
      if (init?.method === 'POST') {
        const file = (init.body as FormData).get('file') as File;
        if (file.name === 'bad.ttf') {
          const msg = 'The font has no glyphs for basic Latin letters and digits (A–Z, a–z, 0–9): A B C missing.';
          return Promise.resolve(json({ success: false, message: msg, data: null, errors: [{ field: 'file', message: msg }] }, 422));
        }
        uploaded = true;
        return Promise.resolve(json({ success: true, message: 'The font was uploaded.', data: mono, errors: [] }, 201));
      }
      if (init?.method === 'DELETE') {
        uploaded = false;
        return Promise.resolve(json({ success: true, message: 'The font was deleted.', data: { in_use: false }, errors: [] }));
      }
      return Promise.resolve(ok(uploaded ? [lato, mono] : [lato]));
    });
    expect(await screen.findByText('No font uploaded yet.')).toBeInTheDocument();
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File(['x'], 'bad.ttf', { type: 'font/ttf' }));
    expect(await screen.findByTestId('font-refusal')).toHaveTextContent('no glyphs for basic Latin');

    await userEvent.upload(input, new File(['x'], 'mono.woff', { type: 'font/woff' }));
    expect(await screen.findByText('The font was uploaded.')).toBeInTheDocument();
    expect(screen.queryByTestId('font-refusal')).not.toBeInTheDocument();
    const card = await waitFor(() => screen.getAllByTestId('font-card').find((c) => c.getAttribute('data-font-url') === mono.font_url)!);
    expect(calls.filter((c) => c.init?.method === 'POST').map((c) => c.url.pathname)).toEqual(['/api/seller/fonts', '/api/seller/fonts']);

    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Campaigns that use it keep it');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete it!' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'DELETE' && c.url.pathname === '/api/seller/fonts/9')).toBe(true));
    expect(await screen.findByText('No font uploaded yet.')).toBeInTheDocument();
  });

  it('offers no upload or delete to a team member who may only read campaigns', async () => {
    showPages('/personalized/fonts', page, () => Promise.resolve(ok([lato, mono])), makeUser({ roles: ['team'], permissions: ['get_campaigns'], access_user: true }));
    expect(await screen.findAllByTestId('font-card')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Upload font' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
