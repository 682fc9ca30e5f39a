import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bell } from '../api/notifications';
import { makeNotification } from '../test/notifications';
import { renderWithMantine } from '../test/render';
import { NotificationBell } from './NotificationBell';

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function setup(bell: Bell) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const path = new URL(input, 'http://localhost').pathname;
      const found = path === '/api/seller/notifications/bell';
      return Promise.resolve(
        new Response(JSON.stringify({ success: found, message: found ? '' : 'Not found.', data: found ? bell : null, errors: [] }), {
          status: found ? 200 : 404,
          headers: { 'Content-Type': 'application/json' },
        }),
      );
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderWithMantine(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <NotificationBell />
        <Routes>
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

afterEach(() => vi.unstubAllGlobals());

describe('NotificationBell', () => {
  it('shows the unread count and lists the newest notifications with View All', async () => {
    const user = setup({
      unread_count: 2,
      notifications: [
        makeNotification(3, { subject: 'Payout delay', is_warning: true }),
        makeNotification(2),
        makeNotification(1, { is_new: false }),
      ],
    });
    const bell = await screen.findByRole('button', { name: 'Notifications (2 unread)' }, { timeout: 5000 });
    expect(screen.getByTestId('notification-count')).toHaveTextContent('2');

    await user.click(bell);
    const dropdown = await screen.findByTestId('notification-dropdown');
    const items = within(dropdown).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining('Payout delay'),
      expect.stringContaining('Notification 2'),
      expect.stringContaining('Notification 1'),
      'View All',
    ]);
    expect(within(items[0]!).getByRole('img', { name: 'Warning' })).toBeInTheDocument();
    expect(items[0]).toHaveAttribute('href', '/notifications/3');

    await user.click(within(dropdown).getByRole('menuitem', { name: 'View All' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/notifications');
  });

  it('has no count when everything is read, and says so when there is nothing', async () => {
    const user = setup({ unread_count: 0, notifications: [] });
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    await user.click(bell);
    expect(await screen.findByText("You don't have any notifications.")).toBeInTheDocument();
    expect(screen.getByTestId('notification-count')).not.toHaveTextContent(/\d/);
  });
});
