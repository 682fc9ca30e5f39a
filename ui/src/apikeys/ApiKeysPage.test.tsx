import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { ApiKeysPage } from './ApiKeysPage';
import { ApiReferencePage } from './ApiReferencePage';

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
const ok = (data: unknown, message = '') => json(200, { success: true, message, data, errors: [] });

const SCOPES = ['user', 'product', 'product_design', 'store', 'page', 'orders'];
const KEY = {
  id: 7,
  name: 'Shop backend',
  prefix: 'prk_live_AbCdEfGh',
  scopes: ['store', 'orders'],
  test_mode: false,
  expires_at: null,
  revoked_at: null,
  last_used_at: '2026-03-01T10:00:00Z',
  created_at: '2026-02-01T10:00:00Z',
};

describe('ApiKeysPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('creates a key, shows its secret once with a copy button, lists it, and revokes it after a confirmation', async () => {
    let keys: unknown[] = [];
    const calls = showPages('/settings/api-keys', { '/settings/api-keys': <ApiKeysPage /> }, (url, init) => {
      if (url.pathname === '/api/settings/api-keys' && init?.method === 'POST') {
        const body = JSON.parse(init.body as string) as { name: string };
        if (body.name === 'Taken') {
          return json(422, {
            success: false,
            message: 'The expiry must be in the future.',
            errors: [{ field: 'expires_at', message: 'The expiry must be in the future.' }],
          });
        }
        keys = [KEY];
        return ok({ key: KEY, secret: 'prk_live_AbCdEfGhSECRET' }, 'API key created.');
      }
      if (url.pathname === '/api/settings/api-keys/7' && init?.method === 'DELETE') {
        keys = [{ ...KEY, revoked_at: '2026-03-02T10:00:00Z' }];
        return ok(keys[0], 'API key revoked. Requests made with it are refused from now on.');
      }
      return ok({ keys, scopes: SCOPES });
    });
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
    const user = userEvent.setup();
    const form = screen.getByRole('form', { name: 'New API key' });
    await user.click(within(form).getByRole('button', { name: 'Create API key' }));
    expect(await screen.findByText('The name is required.')).toBeInTheDocument();

    await user.type(within(form).getByLabelText(/Name/), 'Taken');
    await user.click(within(form).getByRole('button', { name: 'Create API key' }));
    expect(await screen.findAllByText('The expiry must be in the future.')).not.toHaveLength(0);

    await user.clear(within(form).getByLabelText(/Name/));
    await user.type(within(form).getByLabelText(/Name/), 'Shop backend');
    await user.click(within(form).getByLabelText(/Campaigns/));
    await user.click(within(form).getByRole('button', { name: 'Create API key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByTestId('api-key-secret')).toHaveTextContent('prk_live_AbCdEfGhSECRET');
    expect(within(dialog).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    const post = calls.filter((c) => c.init?.method === 'POST').at(-1);
    expect(JSON.parse(post?.init?.body as string)).toEqual({ name: 'Shop backend', scopes: ['store', 'orders'], test_mode: false, expires_at: '' });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('api-key-secret')).not.toBeInTheDocument());

    const row = await screen.findByTestId('api-key');
    expect(row).toHaveTextContent('prk_live_AbCdEfGh…');
    expect(row).toHaveTextContent('Stores, Orders');
    expect(row).toHaveTextContent('Never');
    expect(row).toHaveTextContent('Mar 1, 2026');
    expect(row).toHaveTextContent('Active');
    expect(row).not.toHaveTextContent('SECRET');

    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure?' });
    expect(confirm).toHaveTextContent('Shop backend: programs using this key stop working at once.');
    await user.click(within(confirm).getByRole('button', { name: 'Yes, revoke it' }));
    await waitFor(() => expect(screen.getByTestId('api-key')).toHaveTextContent('Revoked'));
    expect(within(screen.getByTestId('api-key')).queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument();
  });

  it('tells a team member working in the account that only the owner manages keys', () => {
    showPages('/settings/api-keys', { '/settings/api-keys': <ApiKeysPage /> }, () => ok({ keys: [], scopes: SCOPES }),
      makeUser({ roles: ['staff'], access_user: true }));
    expect(screen.getByRole('alert')).toHaveTextContent('Only the account owner manages its API keys.');
    expect(screen.queryByRole('button', { name: 'Create API key' })).not.toBeInTheDocument();
  });

  it('renders the reference from the OpenAPI document', async () => {
    showPages('/settings/api-keys/reference', { '/settings/api-keys/reference': <ApiReferencePage /> }, (url) =>
      url.pathname === '/api/v1/openapi.json'
        ? json(200, {
            openapi: '3.1.0',
            info: { title: 'Pressroom API', version: '1', description: 'Send a key.' },
            servers: [{ url: '/api/v1' }],
            paths: {
              '/stores': {
                get: {
                  summary: 'List stores',
                  parameters: [{ $ref: '#/components/parameters/page' }],
                  responses: { '200': { description: 'A page.' }, '401': { $ref: '#/components/responses/E401' } },
                },
              },
            },
            components: {
              parameters: { page: { name: 'page', in: 'query', description: 'Page number, from 1.' } },
              responses: { E401: { description: 'No key.' } },
            },
          })
        : ok(null),
    );
    const op = await screen.findByTestId('api-operation');
    expect(op).toHaveTextContent('GET/api/v1/stores');
    expect(op).toHaveTextContent('List stores');
    expect(op).toHaveTextContent('Page number, from 1.');
    expect(op).toHaveTextContent('401 No key.');
  });
});
