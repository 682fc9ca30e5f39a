import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithMantine } from '../test/render';
import type { Notification } from '../api/notifications';
import { makeNotification } from '../test/notifications';
import { NotificationPopup } from './NotificationPopup';
import { POPUP_DISMISSED_KEY, POPUP_SHOWN_AT_KEY } from './popupRules';

const note = makeNotification;

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** Serves the popup list and records every request. */
function serve(list: Notification[]): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit) => {
      const path = new URL(input, 'http://localhost').pathname;
      calls.push({ method: init.method ?? 'GET', path, body: init.body ? JSON.parse(init.body as string) : undefined });
      const data = path === '/api/seller/notifications/popup' ? list : { updated: 1 };
      return Promise.resolve(
        new Response(JSON.stringify({ success: true, message: '', data, errors: [] }), {
          headers: { 'Content-Type': 'application/json' },
        }),
      );
    }),
  );
  return calls;
}

function setup(list: Notification[], allowed = true) {
  const calls = serve(list);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <NotificationPopup allowed={allowed} storage={window.localStorage} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { calls, user: userEvent.setup() };
}

const readStatusCalls = (calls: Call[]) => calls.filter((c) => c.path === '/api/seller/notifications/read-status');

beforeEach(() => window.localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('NotificationPopup', () => {
  it('steps through with Back and Next, ends with Close, and reports action 1 and action 2', async () => {
    const { calls, user } = setup([note(3), note(2, { type: 2 }), note(1, { type: 2, seller_id: null })]);

    expect(await screen.findByRole('heading', { name: 'Notification 3' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Body of 3')).toBeInTheDocument();
    expect(screen.getByTestId('notification-popup-step')).toHaveTextContent('1 / 3');
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(POPUP_SHOWN_AT_KEY)).not.toBeNull();

    await user.click(screen.getByRole('checkbox', { name: "Don't show this notification" }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'Notification 2' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: "Don't show this notification" })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('checkbox', { name: "Don't show this notification" })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('notification-popup-step')).toHaveTextContent('3 / 3');
    await user.click(screen.getByRole('checkbox', { name: "Don't show this notification" }));
    await user.click(screen.getByRole('button', { name: 'Close' }));

    await waitFor(() => expect(readStatusCalls(calls)).toHaveLength(2));
    expect(readStatusCalls(calls).map((c) => c.body)).toEqual([
      { notification_ids: [3, 1], action: 1 },
      { notification_ids: [2, 1], action: 2 },
    ]);
    expect(JSON.parse(window.localStorage.getItem(POPUP_DISMISSED_KEY)!)).toEqual(['3|7', '1|ALL']);
    await waitFor(() => expect(screen.queryByTestId('notification-popup-step')).not.toBeInTheDocument());
  });

  it('reports only the type-2 notifications actually shown', async () => {
    const { calls, user } = setup([note(2), note(1, { type: 2 })]);
    await screen.findByRole('heading', { name: 'Notification 2' }, { timeout: 5000 });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('notification-popup-step')).not.toBeInTheDocument());
    expect(readStatusCalls(calls)).toEqual([]);
  });

  it('leaves out the notifications dismissed in this browser', async () => {
    window.localStorage.setItem(POPUP_DISMISSED_KEY, JSON.stringify(['3|7', '1|ALL']));
    setup([note(3), note(2), note(1, { seller_id: null })]);
    expect(await screen.findByRole('heading', { name: 'Notification 2' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByTestId('notification-popup-step')).toHaveTextContent('1 / 1');
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('does not ask the bff within the cooldown, under the hide flag, or for the hide-notify-modal tag', async () => {
    window.localStorage.setItem(POPUP_SHOWN_AT_KEY, String(Date.now() - 5 * 60_000));
    const cooled = setup([note(1)]);
    window.localStorage.clear();
    window.localStorage.setItem('notify-modal-hidden-at', String(Date.now() - 60_000));
    const hidden = setup([note(1)]);
    window.localStorage.clear();
    const tagged = setup([note(1)], false);
    // Give a fetch the chance to happen before asserting it did not.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([...cooled.calls, ...hidden.calls, ...tagged.calls]).toEqual([]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('"Hide for a day" sets the one-day flag and closes', async () => {
    const { user } = setup([note(1)]);
    await screen.findByRole('heading', { name: 'Notification 1' }, { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Hide for a day' }));
    expect(Number(window.localStorage.getItem('notify-modal-hidden-at'))).toBeGreaterThan(0);
    await waitFor(() => expect(screen.queryByTestId('notification-popup-step')).not.toBeInTheDocument());
  });
});
