import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  apiLogin,
  DEMO_ADMIN,
  DEMO_SUPPORT,
  DEMO_TEAM,
  freshEmail,
  NEW_ACCOUNT_PASSWORD,
  outboxLink,
  signInTeamMember,
  totp,
  verifiedAccount,
} from './support/accounts';
import {
  BASE_URL,
  DEMO_PASSWORD,
  DEMO_SELLER,
  openPage,
  pathOf,
  screenshot,
  signIn,
  submitLogin,
  suiteBrowser,
  tokenCookie,
  waitForDashboard,
} from './support/stack';

const PASSWORD = NEW_ACCOUNT_PASSWORD;

async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
}

describe('accounts and access', () => {
  const browser = suiteBrowser();
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
  });

  it('registers, verifies the e-mail from the outbox the admin reads, and signs in', async () => {
    const email = freshEmail('register');
    const { context, page } = await openPage(browser());
    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(`${BASE_URL}/auth/register`);
    await page.getByLabel('Name').fill('Reggie Register');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByLabel(/^Confirm password/).fill(PASSWORD);
    await screenshot(page, 'register');
    await page.getByRole('button', { name: 'Create account' }).click();

    // New, unverified and created after the cut-over: the verify-email-auth guard applies.
    await page.waitForURL(`${BASE_URL}/auth/verify-email`);
    await page.getByText(email).waitFor();
    await screenshot(page, 'verify-email');
    const me = await api('GET', '/seller/orders', await tokenCookie(context));
    expect(me.status).toBe(403);

    // The admin reads the message in the outbox page.
    const admin = await openPage(browser());
    await admin.page.goto('/auth/login?designer=1');
    await submitLogin(admin.page, DEMO_ADMIN, DEMO_PASSWORD);
    await waitForDashboard(admin.page, DEMO_ADMIN);
    await openUserMenu(admin.page);
    await admin.page.getByRole('menuitem', { name: 'Mail outbox' }).click();
    await admin.page.getByLabel('Search mail').fill(email);
    await admin.page.getByTestId('mail-row').filter({ hasText: email }).first().click();
    const body = admin.page.getByTestId('mail-body');
    await body.waitFor();
    await screenshot(admin.page, 'mail-outbox');
    const href = await body.getByRole('link').getAttribute('href');
    expect(href).toMatch(/\/auth\/verify-email\?token=/);
    await admin.context.close();

    const link = new URL(href!);
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByText('Your email has been verified.').waitFor();
    await page.getByRole('link', { name: 'Continue to the dashboard' }).click();
    await waitForDashboard(page, email);
    expect(await page.getByTestId('verify-email-banner').count()).toBe(0);

    // The link works once.
    const again = await api('POST', '/auth/verify-email', undefined, { token: link.searchParams.get('token') });
    expect(again.status).toBe(422);

    await page.goto('/auth/logout');
    await page.waitForURL(`${BASE_URL}/auth/login`);
    await submitLogin(page, email, PASSWORD);
    await waitForDashboard(page, email);
    await context.close();
  });

  it('resets a forgotten password through the e-mailed single-use link', async () => {
    const email = await verifiedAccount('forgot', adminToken);
    const { context, page } = await openPage(browser());
    await page.goto('/auth/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').filter({ hasText: 'we have e-mailed a link' }).waitFor();

    const link = await outboxLink(adminToken, email, '/auth/reset-password');
    await page.goto(link);
    await page.getByLabel(/^New password/).fill('my-brand-new-password');
    await page.getByLabel(/^Confirm new password/).fill('my-brand-new-password');
    await screenshot(page, 'reset-password');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL(`${BASE_URL}/auth/login`);

    await submitLogin(page, email, PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'These credentials do not match our records.' }).waitFor();
    await submitLogin(page, email, 'my-brand-new-password');
    await waitForDashboard(page, email);

    // The same link again is refused (signed out: the reset page is for visitors).
    await page.goto('/auth/logout');
    await page.waitForURL(`${BASE_URL}/auth/login`);
    await page.goto(link);
    await page.getByLabel(/^New password/).fill('yet-another-password');
    await page.getByLabel(/^Confirm new password/).fill('yet-another-password');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('alert').filter({ hasText: 'This password reset link is invalid or has expired.' }).waitFor();
    await context.close();
  });

  it('changes the e-mail address once the link sent to the new one is opened', async () => {
    const email = await verifiedAccount('change-from', adminToken);
    const next = freshEmail('change-to');
    const { context, page } = await openPage(browser());
    await signIn(page, email, PASSWORD);
    await page.goto('/settings/account');
    const form = page.getByRole('form', { name: 'Change email address' });
    await form.getByLabel('New email address').fill(email);
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Send confirmation link' }).click();
    await form.getByRole('alert').filter({ hasText: 'The new email must be different from the current one.' }).waitFor();
    await form.getByLabel('New email address').fill(next);
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Send confirmation link' }).click();
    await form.getByRole('status').filter({ hasText: `We have e-mailed a confirmation link to ${next}.` }).waitFor();
    await screenshot(page, 'change-email-sent');

    await page.goto(await outboxLink(adminToken, next, '/auth/verify-email'));
    await page.getByRole('status').filter({ hasText: 'Your email address has been changed.' }).waitFor();
    await page.goto('/settings/account');
    await page.getByText(next, { exact: true }).waitFor();
    await page.goto('/auth/logout');
    await page.waitForURL(`${BASE_URL}/auth/login`);
    await submitLogin(page, email, PASSWORD);
    await page.getByRole('alert').filter({ hasText: 'These credentials do not match our records.' }).waitFor();
    await submitLogin(page, next, PASSWORD);
    await waitForDashboard(page, next);
    await context.close();
  });

  it('turns on TOTP, then signs in with a code and refuses a used one', async () => {
    const email = await verifiedAccount('totp', adminToken);
    const { context, page } = await openPage(browser());
    await signIn(page, email, PASSWORD);

    await page.goto('/settings/general?current_tab=2fa');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByRole('img', { name: 'Two-factor QR code' }).waitFor();
    const secret = (await page.getByTestId('tfa-secret').innerText()).trim();
    await screenshot(page, 'tfa-setup');
    const enrolmentCode = totp(secret);
    await page.getByLabel('Authentication code').fill(enrolmentCode);
    await page.getByRole('button', { name: 'Turn on two-factor' }).click();
    const codes = page.getByTestId('recovery-codes');
    await codes.waitFor();
    expect((await codes.innerText()).split('\n').filter((line) => line.trim() !== '')).toHaveLength(10);
    await screenshot(page, 'tfa-recovery-codes');

    await page.goto('/auth/logout');
    await page.waitForURL(`${BASE_URL}/auth/login`);
    await submitLogin(page, email, PASSWORD);
    await page.waitForURL(`${BASE_URL}/auth/tfa`);
    // The session owes the code: the bff refuses everything else.
    expect((await api('GET', '/seller/orders', await tokenCookie(context))).status).toBe(403);

    await page.getByLabel('Authentication code').fill(enrolmentCode);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'The two-factor code is invalid or has already been used.' }).waitFor();
    await screenshot(page, 'tfa-code-refused');

    const next = totp(secret, Date.now() + 30_000);
    await page.getByLabel('Authentication code').fill(next);
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForDashboard(page, email);

    // Another sign-in cannot use the code again.
    const other = await openPage(browser());
    await other.page.goto('/auth/login');
    await submitLogin(other.page, email, PASSWORD);
    await other.page.waitForURL(`${BASE_URL}/auth/tfa`);
    await other.page.getByLabel('Authentication code').fill(next);
    await other.page.getByRole('button', { name: 'Verify' }).click();
    await other.page.getByRole('alert').filter({ hasText: 'has already been used' }).waitFor();
    expect(pathOf(other.page)).toBe('/auth/tfa');
    await other.context.close();
    await context.close();
  });

  it('hides Orders from a team member without get_orders, and the bff refuses the orders API', async () => {
    const { context, page } = await openPage(browser());
    await signInTeamMember(page, DEMO_SUPPORT);

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'All Campaigns' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Orders' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Billing & Payouts' }).count()).toBe(0);
    await screenshot(page, 'team-member-menu');

    const orders = await api('GET', '/seller/orders', await tokenCookie(context));
    expect(orders.status).toBe(403);
    expect(orders.body.message).toBe('This action is unauthorized.');
    await context.close();
  });

  it('switches a team member into the seller account and back', async () => {
    const { context, page } = await openPage(browser());
    await page.goto('/auth/login');
    await submitLogin(page, DEMO_TEAM, DEMO_PASSWORD);
    const modal = page.getByRole('dialog', { name: 'Select account' });
    await modal.getByText('Sam Seller').waitFor();
    await modal.getByLabel('Never show again').waitFor();
    await screenshot(page, 'select-account');
    await modal.getByRole('button', { name: 'Switch to Sam Seller' }).click();
    await page.getByText('You have switched to a new account!').waitFor();
    await waitForDashboard(page, DEMO_SELLER);
    expect(pathOf(page)).toBe('/');

    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Back To My Account' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Switch Account' }).count()).toBe(0);
    expect(await page.getByRole('menuitem', { name: 'My Account', exact: true }).count()).toBe(0);
    await screenshot(page, 'switched-account');
    await page.getByRole('menuitem', { name: 'Back To My Account' }).click();
    await waitForDashboard(page, DEMO_TEAM);

    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Switch Account' }).waitFor();
    await context.close();
  });

  it('lets an admin sign in as a seller, auditing every request and refusing a password change', async () => {
    const { context, page } = await openPage(browser());
    await page.goto('/auth/login?designer=1');
    await submitLogin(page, DEMO_ADMIN, DEMO_PASSWORD);
    await waitForDashboard(page, DEMO_ADMIN);
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Sign in as a seller' }).click();
    await page.waitForURL(`${BASE_URL}/auth/login-as-seller`);
    await page.getByLabel('Seller email').fill(DEMO_SELLER);
    await screenshot(page, 'login-as-seller');
    await page.getByRole('button', { name: 'Sign in as seller' }).click();
    await waitForDashboard(page, DEMO_SELLER);
    await page.getByTestId('impersonating').waitFor();
    await screenshot(page, 'impersonating');

    const token = await tokenCookie(context);
    const me = await api<{ access_user: boolean }>('GET', '/me', token);
    expect(me.body.data.access_user).toBe(true);
    const change = await api('POST', '/auth/change-password', token, {
      current_password: DEMO_PASSWORD,
      password: 'not-while-impersonating',
      password_confirmation: 'not-while-impersonating',
    });
    expect(change.status).toBe(403);

    const audit = await fetch(`${BASE_URL}/api/admin/system/audit?q=impersonation.&per_page=50`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    const rows = ((await audit.json()) as { data: { action: string; detail: Record<string, unknown> }[] }).data;
    const sellerId = (await api<{ id: number }>('GET', '/me', await apiLogin(DEMO_SELLER))).body.data.id;
    expect(rows.some((r) => r.action === 'impersonation.start' && r.detail.seller_id === sellerId)).toBe(true);
    const request = rows.find((r) => r.action === 'impersonation.request' && r.detail.path === '/api/me');
    expect(request?.detail.seller_id).toBe(sellerId);
    expect(typeof request?.detail.admin_id).toBe('number');
    expect(String(request?.detail.request_id)).not.toBe('');
    await context.close();
  });
});
