import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign, Product } from '../api/campaigns';
import type { DesignCanvasProps } from '../editor/DesignCanvas';
import { addImage, addText, emptyDocument } from '../editor/model';
import { ACTIONS, CANVAS_ACTIONS, type ActionName } from '../editor/model/actions';
import { json, ok } from '../test/answers';
import { meQuery } from '../session/queries';
import { FRONT, summerDrop, tshirt } from '../test/campaigns';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { CampaignEditorPage } from './CampaignEditorPage';
import { draftKey } from './localDraft';

// jsdom cannot draw Konva: a stand-in canvas lists the objects as buttons that select them, shows the selection and
// passes its keys on as the real canvas does; what the real canvas performs is typed by CANVAS_ACTIONS.
vi.mock('../editor/DesignCanvas', () => ({
  DesignCanvas: ({ doc, perform, onKeyDown, selectedId }: DesignCanvasProps) => (
    <div tabIndex={0} aria-label="Design canvas" data-selected={selectedId ?? ''} onKeyDown={onKeyDown}>
      {doc.objects.map((o) => (
        <button key={o.id} type="button" onClick={() => perform({ name: 'select', value: o.id })}>
          select {o.id}
        </button>
      ))}
    </div>
  ),
}));

const front = FRONT;
const product: Product = tshirt([front]);
const withArt = addImage(emptyDocument(front), { id: 'art-1', src: 'u/1/artworks/a-art.png', width: 4500, height: 5400 }, { restricted: true });
const withText = addText(withArt, { id: 'text-1' });
if ('error' in withText) throw new Error(withText.error);
const CAMPAIGN: Campaign = summerDrop(product, withText.doc);
const CLIPART = {
  id: 9,
  name: 'Gold star',
  folder_id: null,
  key: 'u/1/cliparts/c-star.png',
  width: 4000,
  height: 1000,
  format: 'svg',
  status: 'ready',
  message: '',
  byte_size: 4000,
  created_at: '2026-11-22T06:00:00Z',
  file_url: '/api/files/u/1/cliparts/c-star.png',
  thumbnail_url: '/api/files/u/1/cliparts/c-star.png?variant=thumb',
};
const UPLOAD = {
  id: 3,
  folder_id: null,
  campaigns: [],
  filePath: 'u/1/artworks/b-art.png',
  fileUrl: '/api/files/u/1/artworks/b-art.png',
  file_name: 'b-art.png',
  type: 'artwork',
  status: 'ready',
  message: '',
  content_type: 'image/png',
  width: 2000,
  height: 2000,
  dpi_x: null,
  dpi_y: null,
  byte_size: 1000,
  stripped: true,
  created_at: '2026-11-22T06:00:00Z',
};

function setup(user = makeUser()) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit) => {
      const path = new URL(input, 'http://localhost').pathname;
      const answers: Record<string, () => Response> = {
        'GET /api/seller/campaigns/41': () => ok(CAMPAIGN),
        'GET /api/seller/campaigns/41/exports': () => ok([]),
        'POST /api/seller/campaigns/41/calc-extra-print-cost-products': () => ok([{ id: 7, extra_print_cost: 0 }]),
        'GET /api/seller/product-templates': () => ok([]),
        'GET /api/fonts': () => ok([{ family: 'Roboto', url: '/api/fonts/Roboto-Regular.ttf', font_url: '' }]),
        'GET /api/seller/fonts': () => ok([]),
        'GET /api/seller/artworks': () => json({ data: [UPLOAD], total: 1, per_page: 24, current_page: 1, last_page: 1, from: 1, to: 1 }),
        'GET /api/seller/cliparts': () => json({ data: [CLIPART], total: 1, per_page: 16, current_page: 1, last_page: 1, from: 1, to: 1 }),
      };
      const answer = answers[`${init.method ?? 'GET'} ${path}`];
      return Promise.resolve(answer ? answer() : json({ success: false, message: `no route ${path}`, data: null, errors: [] }, 404));
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, user);
  const router = createMemoryRouter([{ path: '/campaigns/edit/:id?', element: <CampaignEditorPage /> }], {
    initialEntries: ['/campaigns/edit/41'],
  });
  renderWithMantine(
    <QueryClientProvider client={client}>
      <Notifications />
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return userEvent.setup({ delay: null });
}

/** The actions the controls on screen are bound to. */
const boundOnScreen = () =>
  new Set([...document.querySelectorAll('[data-action]')].map((el) => el.getAttribute('data-action') as ActionName));

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the campaign editor’s actions', { timeout: 40_000 }, () => {
  it('gives every action of the registry a key, the canvas or a control on screen', async () => {
    // A kept draft, so its offer (and the restore button) shows.
    localStorage.setItem(
      draftKey(CAMPAIGN),
      JSON.stringify({ savedAt: '2026-11-26T12:00:00Z', draft: { name: 'Kept', personalized: null, productPersonalized: {} }, docs: {} }),
    );
    const user = setup();
    await screen.findByTestId('draft-offer');
    await screen.findByRole('button', { name: 'Add text' });
    await screen.findByRole('button', { name: 'Add b-art.png' });
    const bound = boundOnScreen();
    await user.click(screen.getByRole('button', { name: 'select art-1' }));
    await screen.findByLabelText('Width (print px)');
    boundOnScreen().forEach((name) => bound.add(name));
    await user.click(screen.getByRole('button', { name: 'select text-1' }));
    await screen.findByRole('textbox', { name: 'Text' });
    boundOnScreen().forEach((name) => bound.add(name));
    // A text the buyer fills shows how they fill it.
    await user.click(screen.getByRole('checkbox', { name: 'The customer can edit this text' }));
    await screen.findByTestId('buyer-input');
    boundOnScreen().forEach((name) => bound.add(name));

    for (const name of bound) expect(ACTIONS, `data-action="${name}" names no action`).toHaveProperty(name);
    for (const name of Object.keys(ACTIONS) as ActionName[]) {
      const reachable = ACTIONS[name].keyTest !== undefined || (CANVAS_ACTIONS as readonly string[]).includes(name) || bound.has(name);
      expect(reachable, `${name} has no key, is not performed by the canvas and no control on screen is bound to it`).toBe(true);
    }
  });

  it('adds a clipart of the library as an image, as it adds an artwork', async () => {
    const user = setup();
    await screen.findByRole('button', { name: 'Add text' }, { timeout: 10_000 });
    await screen.findByRole('button', { name: 'Add b-art.png' }, { timeout: 10_000 });
    await user.click(screen.getByRole('radio', { name: 'Cliparts' }));
    await user.click(await screen.findByRole('button', { name: 'Add Gold star' }));
    await user.click(await screen.findByRole('button', { name: 'select art-2' }));
    expect(await screen.findByLabelText('Width (print px)')).toBeInTheDocument();
    expect(screen.getByTestId('clipart-picker')).toBeInTheDocument();
  });

  it('offers the library’s cliparts beside the artworks as the pictures a buyer picks from', async () => {
    const user = setup();
    await user.click(await screen.findByRole('button', { name: 'select art-1' }, { timeout: 10_000 }));
    await user.click(await screen.findByRole('checkbox', { name: /Customer image/ }));
    await screen.findByTestId('buyer-input');
    await user.click(screen.getByText('Picks a picture'));
    const offer = await screen.findByRole('button', { name: 'Offer Gold star' });
    expect(screen.getByRole('button', { name: /Offer b-art/ })).toBeInTheDocument();
    await user.click(offer);
    expect(await screen.findByRole('button', { name: 'Stop offering Gold star' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText(/Pictures offered: .*Gold star/)).toBeInTheDocument();
  });

  it('removes the selected object with Delete on the canvas, clearing the refusal of a third text', async () => {
    const user = setup();
    await user.click(await screen.findByRole('button', { name: 'Add text' }));
    await user.click(screen.getByRole('button', { name: 'Add text' }));
    expect(await screen.findByTestId('text-refusal')).toHaveTextContent('A print area holds at most 2 texts.');

    await user.click(screen.getByRole('button', { name: 'select text-1' }));
    fireEvent.keyDown(screen.getByLabelText('Design canvas'), { key: 'Delete' });

    await waitFor(() => expect(screen.queryByRole('button', { name: 'select text-1' })).not.toBeInTheDocument());
    expect(screen.queryByTestId('text-refusal')).not.toBeInTheDocument();
    expect(screen.getByText('1 of 2 texts')).toBeInTheDocument();
  });

  it('undoes with Ctrl+Z and redoes with Ctrl+Y on the page, and leaves them to a text field', async () => {
    const user = setup();
    await user.click(await screen.findByRole('button', { name: 'select art-1' }));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.queryByRole('button', { name: 'select art-1' })).not.toBeInTheDocument();

    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Campaign name' }), { key: 'z', ctrlKey: true });
    expect(screen.queryByRole('button', { name: 'select art-1' })).not.toBeInTheDocument();

    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(await screen.findByRole('button', { name: 'select art-1' })).toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: 'y', ctrlKey: true });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'select art-1' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Redo' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Undo' })).toBeEnabled();
  });

  it('keeps unsaved work in the browser and offers it back when the editor opens again', async () => {
    let user = setup();
    await user.click(await screen.findByRole('button', { name: 'select art-1' }));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    await user.clear(screen.getByRole('textbox', { name: 'Campaign name' }));
    await user.type(screen.getByRole('textbox', { name: 'Campaign name' }), 'Kept drop');
    await waitFor(() => expect(localStorage.getItem(draftKey(CAMPAIGN))).toContain('Kept drop'));

    // A reload: the editor opens again from the saved campaign, and offers the kept changes.
    cleanup();
    user = setup();
    const offer = await screen.findByTestId('draft-offer');
    expect(offer).toHaveTextContent('Unsaved changes were kept in this browser');
    expect(screen.getByRole('button', { name: 'select art-1' })).toBeInTheDocument();
    // Nothing is written over the kept draft while it waits for an answer.
    expect(localStorage.getItem(draftKey(CAMPAIGN))).toContain('Kept drop');
    await user.click(screen.getByRole('button', { name: 'Restore changes' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'select art-1' })).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: 'Campaign name' })).toHaveValue('Kept drop');
    expect(screen.queryByTestId('draft-offer')).not.toBeInTheDocument();
    // Undo takes the restored changes back, which leaves nothing unsaved: the kept draft goes.
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    expect(await screen.findByRole('button', { name: 'select art-1' })).toBeInTheDocument();
  });

  it('forgets a discarded draft', async () => {
    localStorage.setItem(
      draftKey(CAMPAIGN),
      JSON.stringify({ savedAt: '2026-11-26T12:00:00Z', draft: { name: 'Kept', personalized: null, productPersonalized: {} }, docs: {} }),
    );
    const user = setup();
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(screen.queryByTestId('draft-offer')).not.toBeInTheDocument();
    await waitFor(() => expect(localStorage.getItem(draftKey(CAMPAIGN))).toBeNull());
  });

  it('says so under the text when a paste is longer than it holds, and bounds the font size', async () => {
    const user = setup();
    await user.click(await screen.findByRole('button', { name: 'select text-1' }));
    const field = await screen.findByRole('textbox', { name: 'Text' });
    await user.clear(field);
    await user.click(field);
    await user.paste('Twenty characters!!!');
    expect(field).toHaveValue('Twenty character');
    expect(screen.getByText('This text holds at most 16 characters: the last 4 characters were left out.')).toBeInTheDocument();

    const size = screen.getByRole('textbox', { name: 'Size' });
    for (const typed of ['0', '-5', '99999']) {
      await user.clear(size);
      await user.type(size, typed);
      expect(await screen.findByText('The size must be from 1 to 5400.')).toBeInTheDocument();
    }
    await user.clear(size);
    await user.type(size, '400');
    await waitFor(() => expect(screen.queryByText('The size must be from 1 to 5400.')).not.toBeInTheDocument());
    await user.tab();
    expect(size).toHaveValue('400');
  });
});
