import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomDomain } from '../api/domains';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { DomainsPage } from './DomainsPage';

const pending: CustomDomain = {
  id: 4,
  store_id: 1,
  store_name: "Sam's Print Shop",
  domain: 'shop.example.test',
  status: 'pending',
  check_error: '',
  checked_at: null,
  verified_at: null,
  created_at: '2026-11-26T10:00:00Z',
  record_name: '_pressroom-verify.shop.example.test',
  record_value: '0123456789abcdef0123456789abcdef',
};
const verified: CustomDomain = { ...pending, status: 'verified', checked_at: '2026-11-26T10:05:00Z', verified_at: '2026-11-26T10:05:00Z' };
const failed: CustomDomain = {
  ...pending,
  status: 'failed',
  checked_at: '2026-11-26T10:05:00Z',
  check_error: 'No TXT record was found at _pressroom-verify.shop.example.test. Create it with the value shown, then check again.',
};
const store = { id: 1, name: "Sam's Print Shop" };

afterEach(() => vi.unstubAllGlobals());

describe('DomainsPage', () => {
  it('adds a domain to the only store and shows the record to create, with copy buttons', async () => {
    let added = false;
    const calls = showPages('/domains', { '/domains': <DomainsPage /> }, (url, init) => {
      if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([store]));
      if (init?.method === 'POST') {
        added = true;
        return Promise.resolve(json({ success: true, message: 'The domain was added. Create the DNS record shown, then check it.', data: pending, errors: [] }, 201));
      }
      return Promise.resolve(ok(added ? [pending] : []));
    });
    expect(await screen.findByText('No domain yet.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Add a domain' });
    expect(await within(form).findByDisplayValue("Sam's Print Shop")).toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText('Domain'), 'Shop.Example.test');
    await userEvent.click(within(form).getByRole('button', { name: 'Add domain' }));
    const post = await waitFor(() => calls.find((c) => c.init?.method === 'POST')!);
    expect(post.url.pathname).toBe('/api/domains');
    expect(JSON.parse(post.init?.body as string)).toEqual({ store_id: 1, domain: 'Shop.Example.test' });

    const card = await screen.findByTestId('domain');
    expect(within(card).getByText('Waiting for DNS')).toBeInTheDocument();
    expect(within(card).getByText('_pressroom-verify.shop.example.test')).toBeInTheDocument();
    expect(within(card).getByText('0123456789abcdef0123456789abcdef')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Copy the record name' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Copy the record value' })).toBeInTheDocument();
    expect(within(card).getByText(/not checked yet/)).toBeInTheDocument();
  });

  it('shows a refused domain next to its field', async () => {
    showPages('/domains', { '/domains': <DomainsPage /> }, (url, init) => {
      if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([store]));
      if (init?.method === 'POST')
        return Promise.resolve(
          json({ success: false, message: 'Enter a domain name, not an IP address.', data: null, errors: [{ field: 'domain', message: 'Enter a domain name, not an IP address.' }] }, 422),
        );
      return Promise.resolve(ok([]));
    });
    const form = await screen.findByRole('form', { name: 'Add a domain' });
    await userEvent.type(within(form).getByLabelText('Domain'), '10.0.0.1');
    await userEvent.click(within(form).getByRole('button', { name: 'Add domain' }));
    expect(await within(form).findByText('Enter a domain name, not an IP address.')).toBeInTheDocument();
  });

  it('checks a domain again and shows what the check found', async () => {
    let state = failed;
    const calls = showPages('/domains', { '/domains': <DomainsPage /> }, (url, init) => {
      if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([store]));
      if (init?.method === 'POST' && url.pathname === '/api/domains/4/check') {
        state = verified;
        return Promise.resolve(json({ success: true, message: 'The domain is verified: your store answers on it.', data: verified, errors: [] }));
      }
      return Promise.resolve(ok([state]));
    });
    const card = await screen.findByTestId('domain');
    expect(within(card).getByText('Not verified')).toBeInTheDocument();
    expect(within(card).getByText(failed.check_error)).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Check now' }));
    expect(await within(card).findByText('Verified')).toBeInTheDocument();
    expect(within(card).queryByText(failed.check_error)).toBeNull();
    expect(within(card).getByRole('link', { name: 'Open store' })).toHaveAttribute('href', 'https://shop.example.test/');
    expect(calls.some((c) => c.url.pathname === '/api/domains/4/check')).toBe(true);
  });

  it('removes a domain after the confirmation', async () => {
    let removed = false;
    const calls = showPages('/domains', { '/domains': <DomainsPage /> }, (url, init) => {
      if (url.pathname === '/api/seller/stores') return Promise.resolve(onePage([store]));
      if (init?.method === 'DELETE') {
        removed = true;
        return Promise.resolve(json({ success: true, message: 'The domain was removed.', data: null, errors: [] }));
      }
      return Promise.resolve(ok(removed ? [] : [verified]));
    });
    const card = await screen.findByTestId('domain');
    await userEvent.click(within(card).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete it!' }));
    expect(await screen.findByText('No domain yet.')).toBeInTheDocument();
    expect(calls.find((c) => c.init?.method === 'DELETE')?.url.pathname).toBe('/api/domains/4');
  });

  it('is read-only without update_campaign', async () => {
    const member = makeUser({ roles: ['staff'], permissions: ['get_campaigns'], timezone: 'UTC' });
    showPages('/domains', { '/domains': <DomainsPage /> }, () => Promise.resolve(ok([verified])), member);
    const card = await screen.findByTestId('domain');
    expect(within(card).getByText('Verified')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add a domain' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Check now' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Remove' })).toBeNull();
  });
});
