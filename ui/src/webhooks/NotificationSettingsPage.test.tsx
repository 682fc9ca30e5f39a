import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Delivery, Endpoint } from '../api/webhooks';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { NotificationSettingsPage } from './NotificationSettingsPage';

const endpoint: Endpoint = {
  id: 5,
  kind: 'custom',
  kind_label: 'webhook',
  name: 'ERP',
  url: 'https://erp.example.com/hooks',
  chat_id: '',
  secret: 'whsec_abc',
  events: ['order.created', 'order.status_changed'],
  enabled: true,
  disabled_reason: '',
  failing_since: null,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};

const delivery: Delivery = {
  id: 40,
  endpoint_id: 5,
  event_id: 9,
  order_id: 3,
  event_type: 'order.created',
  status: 'failed',
  attempts: 3,
  next_attempt_at: '2026-11-01T10:00:00Z',
  last_status: 500,
  last_error: 'HTTP 500',
  created_at: '2026-11-01T10:00:00Z',
  finished_at: '2026-11-02T10:00:00Z',
};

const PAGE = '/settings/notification';
const BASE = '/api/settings/notification/endpoints';

afterEach(() => vi.unstubAllGlobals());

describe('NotificationSettingsPage', () => {
  it('lists endpoints with human labels, shows the log, replays a delivery and sends a test', async () => {
    const calls = showPages(PAGE, { [PAGE]: <NotificationSettingsPage /> }, (url, init) => {
      if (url.pathname === `${BASE}/5/deliveries`) return Promise.resolve(onePage([delivery]));
      if (init?.method === 'POST') return Promise.resolve(ok({ ...delivery, id: 41, event_type: 'webhook.test', status: 'pending' }));
      return Promise.resolve(ok([endpoint]));
    });
    const row = await screen.findByTestId('endpoint');
    expect(within(row).getByText('ERP')).toBeInTheDocument();
    expect(within(row).getByText('Order created')).toBeInTheDocument();
    expect(within(row).getByText('Order status changed')).toBeInTheDocument();
    expect(within(row).getByText('whsec_abc')).toBeInTheDocument();
    expect(within(row).getByText('On')).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Delivery log' }));
    const d = await screen.findByTestId('delivery');
    expect(within(d).getByText('Failed')).toBeInTheDocument();
    expect(within(d).getByText('3 tries')).toBeInTheDocument();
    expect(within(d).getByText('HTTP 500')).toBeInTheDocument();
    await userEvent.click(within(d).getByRole('button', { name: 'Replay' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === `${BASE}/5/deliveries/40/replay` && c.init?.method === 'POST')).toBe(true));

    await userEvent.click(within(row).getByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === `${BASE}/5/test` && c.init?.method === 'POST')).toBe(true));
  });

  it('adds a Telegram endpoint and shows a refusal next to its field', async () => {
    let posts = 0;
    const calls = showPages(PAGE, { [PAGE]: <NotificationSettingsPage /> }, (_url, init) => {
      if (init?.method === 'POST') {
        posts++;
        if (posts === 1)
          return Promise.resolve(
            json(
              {
                success: false,
                message: 'The bot token must look like 123456:ABC-DEF...',
                data: null,
                errors: [{ field: 'bot_token', message: 'The bot token must look like 123456:ABC-DEF...' }],
              },
              422,
            ),
          );
        return Promise.resolve(json({ success: true, message: '', data: { ...endpoint, kind: 'telegram' }, errors: [] }, 201));
      }
      return Promise.resolve(ok([]));
    });
    expect(await screen.findByText('No endpoints yet. Add one to receive your order events.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Channel' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Telegram' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Bot token/ }), 'nope');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Chat id/ }), '@shop');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save endpoint' }));
    expect(await within(dialog).findByText('The bot token must look like 123456:ABC-DEF...')).toBeInTheDocument();
    const post = calls.find((c) => c.init?.method === 'POST')!;
    expect(post.url.pathname).toBe(BASE);
    expect(JSON.parse(post.init?.body as string)).toMatchObject({ kind: 'telegram', bot_token: 'nope', chat_id: '@shop' });
  });
});
