import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentAccount, PayoutMethodForm } from '../api/paymentAccounts';
import type { PaymentGateway } from '../api/paymentGateways';
import { json, ok } from '../test/answers';
import { onePage, showPages } from '../test/pages';
import { makeUser } from '../test/users';
import { deleteGatewayText } from './model';
import { PaymentAccountsPage } from './PaymentAccountsPage';
import { PaymentGatewayFormPage } from './PaymentGatewayFormPage';
import { PaymentGatewaysPage } from './PaymentGatewaysPage';

const customSeller = makeUser({ custom_payment: true });
const readOnlyMember = makeUser({ custom_payment: true, roles: ['staff'], permissions: ['get_payments'], access_user: true });

const gateway: PaymentGateway = {
  id: 2,
  name: 'My Stripe',
  provider: 'stripe',
  account_id: 'acct_1Demo',
  test_mode: true,
  publishable_key: 'pk_test_demo4242',
  secret_key: 'sk_test_••••••••4242',
  webhook_secret: 'whsec_••••••••9876',
  webhook_url: 'https://shops.example.com/webhooks/stripe/seller/7',
  stores: [{ id: 1, name: "Sam's Print Shop", slug: 'demo' }],
  pending_checkouts: 2,
  created_at: '2026-04-15T10:00:00Z',
  updated_at: '2026-04-15T10:00:00Z',
};

/** Puts text into an input as a paste: one event, where typing takes one per character. */
async function fill(input: HTMLElement, text: string) {
  await userEvent.click(input);
  await userEvent.paste(text);
}

const refusal = (field: string, message: string) => json({ success: false, message, data: null, errors: [{ field, message }] }, 422);

afterEach(() => vi.unstubAllGlobals());

describe('payment gateways', () => {
  it('lists a gateway with its mode, masked key, stores and the webhook address', async () => {
    showPages('/settings/payment-gateways', { '/settings/payment-gateways': <PaymentGatewaysPage /> }, () => Promise.resolve(onePage([gateway])), customSeller);
    const row = await screen.findByTestId('payment-gateway');
    expect(within(row).getByText('Test mode')).toBeInTheDocument();
    expect(within(row).getByText('sk_test_••••••••4242')).toBeInTheDocument();
    expect(within(row).getByText("Sam's Print Shop")).toBeInTheDocument();
    expect(screen.getByText('https://shops.example.com/webhooks/stripe/seller/7')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Connect Stripe' })).toHaveAttribute('href', '/settings/payment-gateways/create');
  });

  it('is read-only for a team member who may only see payments', async () => {
    showPages('/settings/payment-gateways', { '/settings/payment-gateways': <PaymentGatewaysPage /> }, () => Promise.resolve(onePage([gateway])), readOnlyMember);
    const row = await screen.findByTestId('payment-gateway');
    expect(within(row).getByRole('link', { name: 'View' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Connect Stripe' })).toBeNull();
  });

  it('says why to an account without custom payment, and asks nothing', async () => {
    const calls = showPages('/settings/payment-gateways', { '/settings/payment-gateways': <PaymentGatewaysPage /> }, () => Promise.resolve(onePage([])), makeUser());
    expect(await screen.findByText(/Your stores take their payments through Pressroom/)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('says what deleting a gateway does to its stores and to payments begun', () => {
    expect(deleteGatewayText(gateway)).toBe(
      "Sam's Print Shop will take payments through Pressroom again. Payments buyers already started (2 checkouts) still complete into your Stripe account.",
    );
    expect(deleteGatewayText({ stores: [], pending_checkouts: 0 })).toBe('No store uses it.');
  });

  it('connects an account: the webhook address first, Stripe refusing the key under its field, then the gateway', async () => {
    let refuse = true;
    const calls = showPages(
      '/settings/payment-gateways/create',
      {
        '/settings/payment-gateways/create': <PaymentGatewayFormPage />,
        '/settings/payment-gateways/edit/:id': <PaymentGatewayFormPage />,
      },
      (url, init) => {
        if (url.pathname === '/api/seller/payment-gateways/setup') {
          return Promise.resolve(ok({ webhook_url: gateway.webhook_url, events: ['payment_intent.succeeded', 'payment_intent.payment_failed'] }));
        }
        if (url.pathname === '/api/seller/payment-gateways/stores') {
          return Promise.resolve(ok([{ id: 1, name: "Sam's Print Shop", slug: 'demo', gateway_id: null, gateway_name: null }]));
        }
        if (init?.method === 'POST') {
          if (refuse) {
            refuse = false;
            return Promise.resolve(refusal('secret_key', 'Stripe refused the secret key: it is not a valid API key of any Stripe account.'));
          }
          return Promise.resolve(json({ success: true, message: 'The payment gateway is connected.', data: gateway, errors: [] }, 201));
        }
        return Promise.resolve(ok(gateway));
      },
      customSeller,
    );
    expect(await screen.findByText('https://shops.example.com/webhooks/stripe/seller/7', {}, { timeout: 5000 })).toBeInTheDocument();
    await fill(screen.getByLabelText(/^Name/), 'My Stripe');
    await fill(screen.getByLabelText(/^Secret key/), 'sk_test_wrong');
    await fill(screen.getByLabelText(/^Publishable key/), 'pk_test_demo4242');
    await fill(screen.getByLabelText(/^Webhook signing secret/), 'whsec_demo9876');
    await userEvent.click(screen.getByPlaceholderText('Choose stores'));
    await userEvent.click(await screen.findByRole('option', { name: "Sam's Print Shop" }));
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Stripe refused the secret key: it is not a valid API key of any Stripe account.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('heading', { name: 'My Stripe' })).toBeInTheDocument();
    const post = calls.filter((c) => c.init?.method === 'POST').at(-1)!;
    expect(JSON.parse(post.init?.body as string)).toEqual({
      name: 'My Stripe',
      secret_key: 'sk_test_wrong',
      publishable_key: 'pk_test_demo4242',
      webhook_secret: 'whsec_demo9876',
      store_ids: [1],
    });
  }, 45_000);
});

const methods: PayoutMethodForm[] = [
  {
    code: 'bank',
    label: 'Bank transfer',
    fields: [
      { name: 'holder_name', label: 'Account holder', required: true, sensitive: false, kind: 'text', description: '' },
      { name: 'account_number', label: 'Account number or IBAN', required: true, sensitive: true, kind: 'text', description: '' },
    ],
  },
  {
    code: 'payoneer',
    label: 'Payoneer',
    fields: [
      { name: 'holder_name', label: 'Account holder', required: true, sensitive: false, kind: 'text', description: '' },
      { name: 'email', label: 'Payoneer account e-mail', required: true, sensitive: true, kind: 'email', description: '' },
    ],
  },
];

const account = (change: Partial<PaymentAccount> = {}): PaymentAccount => ({
  id: 3,
  method: 'bank',
  method_label: 'Bank transfer',
  label: 'Bank transfer · First Demo Bank · ••••••••6789',
  fields: { holder_name: 'Sam Seller', account_number: '••••••••6789' },
  status: 'valid',
  status_note: '',
  is_default: true,
  confirm_sent_at: null,
  confirm_expires_at: null,
  confirmed_at: '2026-04-15T10:00:00Z',
  created_at: '2026-04-15T10:00:00Z',
  updated_at: '2026-04-15T10:00:00Z',
  ...change,
});

const accountsPage = (path: string, answer: Parameters<typeof showPages>[2], user = makeUser()) =>
  showPages(path, { '/settings/payment-account': <PaymentAccountsPage /> }, answer, user);

describe('payment accounts', () => {
  it('shows each account with its status in words, the default, and what an admin said of an invalid one', async () => {
    accountsPage('/settings/payment-account', (url) =>
      Promise.resolve(
        url.pathname.endsWith('/methods')
          ? ok(methods)
          : ok([
              account(),
              account({ id: 4, status: 'new', is_default: false, confirm_sent_at: '2026-04-16T10:00:00Z' }),
              account({ id: 5, status: 'invalid', is_default: false, status_note: 'The bank returned the transfer.' }),
            ]),
      ),
    );
    const [valid, fresh, invalid] = await screen.findAllByTestId('payment-account');
    if (!valid || !fresh || !invalid) throw new Error('three accounts expected');
    expect(within(valid).getByText('Confirmed')).toBeInTheDocument();
    expect(within(valid).getByText('Default')).toBeInTheDocument();
    expect(within(valid).getByText('Account number or IBAN: ••••••••6789')).toBeInTheDocument();
    expect(within(fresh).getByText('Waiting for confirmation')).toBeInTheDocument();
    expect(within(fresh).getByText(/We e-mailed a confirmation link to seller@example.com/)).toBeInTheDocument();
    expect(within(fresh).getByRole('button', { name: 'Send a new link' })).toBeInTheDocument();
    expect(within(invalid).getByText(/The bank returned the transfer./)).toBeInTheDocument();
    expect(within(invalid).queryByRole('button', { name: 'Make default' })).toBeNull();
  });

  it('spends the e-mailed link it was opened with, once, and says so', async () => {
    const calls = accountsPage('/settings/payment-account?token=tok123', (url, init) => {
      if (init?.method === 'POST') {
        return Promise.resolve(json({ success: true, message: 'The payment account is confirmed. Payouts can be sent to it.', data: account(), errors: [] }));
      }
      return Promise.resolve(url.pathname.endsWith('/methods') ? ok(methods) : ok([account()]));
    });
    expect(await screen.findByTestId('confirm-result')).toHaveTextContent('The payment account is confirmed. Payouts can be sent to it.');
    const posts = calls.filter((c) => c.init?.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.url.pathname).toBe('/api/seller/payment-accounts/confirm');
    expect(JSON.parse(posts[0]?.init?.body as string)).toEqual({ token: 'tok123' });
  });

  it('adds an account with the fields of its method, each refusal under its field', async () => {
    let refuse = true;
    const calls = accountsPage('/settings/payment-account', (url, init) => {
      if (init?.method === 'POST') {
        if (refuse) {
          refuse = false;
          return Promise.resolve(refusal('fields.email', 'Enter one e-mail address, such as name@example.com.'));
        }
        return Promise.resolve(json({ success: true, message: 'The payment account was added.', data: account({ method: 'payoneer' }), errors: [] }, 201));
      }
      return Promise.resolve(url.pathname.endsWith('/methods') ? ok(methods) : ok([]));
    });
    expect(await screen.findByText('You have no payment account yet. Add one to be paid.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add account' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Payout method' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Payoneer' }));
    expect(within(dialog).queryByLabelText(/Account number/)).toBeNull();
    await fill(within(dialog).getByLabelText(/^Account holder/), 'Sam Seller');
    await fill(within(dialog).getByLabelText(/^Payoneer account e-mail/), 'sam');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add account' }));
    expect(await within(dialog).findByText('Enter one e-mail address, such as name@example.com.')).toBeInTheDocument();
    await fill(within(dialog).getByLabelText(/^Payoneer account e-mail/), '@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add account' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = calls.filter((c) => c.init?.method === 'POST').at(-1)!;
    expect(JSON.parse(post.init?.body as string)).toEqual({ method: 'payoneer', fields: { holder_name: 'Sam Seller', email: 'sam@example.com' } });
  });

  it('changes an account keeping its masked number unless it is typed again', async () => {
    const calls = accountsPage('/settings/payment-account', (url, init) => {
      if (init?.method === 'PUT') return Promise.resolve(json({ success: true, message: 'The payment account was changed.', data: account(), errors: [] }));
      return Promise.resolve(url.pathname.endsWith('/methods') ? ok(methods) : ok([account()]));
    });
    const card = await screen.findByTestId('payment-account');
    await userEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Stored: ••••••••6789. Leave empty to keep it.')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText(/^Account holder/));
    await fill(within(dialog).getByLabelText(/^Account holder/), 'Samantha Seller');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save and confirm again' }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.init?.method === 'PUT')!;
    expect(put.url.pathname).toBe('/api/seller/payment-accounts/3');
    expect(JSON.parse(put.init?.body as string)).toEqual({ method: 'bank', fields: { holder_name: 'Samantha Seller', account_number: '' } });
  });

  it('says why to a team member who may not manage payment accounts, and asks nothing', async () => {
    const calls = accountsPage('/settings/payment-account', () => Promise.resolve(ok([])), readOnlyMember);
    expect(await screen.findByText(/needs the permission to manage payment accounts/)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
