import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN, DEMO_SUPPORT, signInTeamMember } from './support/accounts';
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
  VIEWPORT,
  waitForDashboard,
} from './support/stack';

/** A seeded seller tagged beta, "old bulk campaign" and fulfill (bff/seed). */
const VETERAN = 'veteran@example.com';
const DESIGNER = 'designer@example.com';

/** Keeps the seller survey and the product tour from covering the menu in these tests. */
async function quiet(context: BrowserContext, origin: string): Promise<void> {
  await context.addCookies(
    ['disable_seller_survey', 'disable_product_tour'].map((name) => ({ name, value: '1', url: origin })),
  );
}

/** A fresh desktop page on the stack, at BASE_URL or `origin`, with the survey and tour turned off. */
async function openQuietPage(browser: Browser, origin = BASE_URL): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openPage(browser, VIEWPORT, origin);
  await quiet(opened.context, origin);
  return opened;
}

/** The menu as shown: each section's label and the labels of its links. */
async function menuOf(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link').first().waitFor();
  return nav
    .locator('a, button')
    .evaluateAll((nodes) => nodes.map((node) => `${node.hasAttribute('href') ? '' : '# '}${node.textContent?.trim() ?? ''}`));
}

/** Sets a system config as an admin (PUT /api/admin/system-configs/{key}). */
async function setConfig(key: string, value: string): Promise<void> {
  const token = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
  const answer = await api('PUT', `/admin/system-configs/${key}`, token, { value });
  if (answer.status !== 200) throw new Error(`${key} ${value}: ${answer.status} ${answer.body.message}`);
}

/** Sets the platform's maintenance switch. */
const setMaintenance = (on: boolean) => setConfig('maintenance', String(on));

/** The stack's origin under another host name (Chromium resolves *.localhost to loopback). */
function originOnHost(hostname: string): string {
  const url = new URL(BASE_URL);
  url.hostname = hostname;
  return url.origin;
}

describe('the shell menu', () => {
  const browser = suiteBrowser();

  it('shows a seller every section with its items and highlights the page shown', async () => {
    const { context, page } = await openQuietPage(browser());
    await signIn(page, DEMO_SELLER);

    expect(await menuOf(page)).toEqual([
      '# Dashboard', 'Overview', 'Referral Program', 'Contest', 'Calendar',
      '# Orders', 'All Orders', 'Abandoned', 'Cross-Selling', 'Customers', 'Fulfill Orders',
      // The demo seller holds the "pricing" tag (bff/seed): Pricing shows.
      '# Campaigns', 'All Campaigns', 'Promotions', 'Collections', 'Pricing', 'Bulk campaigns', 'On promotion',
      // The demo seller holds the "email marketing" tag (bff/seed): the section shows with its Beta label.
      '# Email MarketingBeta', 'Campaigns', 'Subscribers', 'Settings', 'Senders',
      '# Storefronts', 'All Stores', 'Product Reviews', 'Search Keywords', 'Social Feed',
      '# Products', 'Stock status',
      'Billing & Payouts',
      '# Settings', 'General', 'Payment Accounts', 'Domains', 'Team', 'Notifications', 'API Keys',
    ]);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Search Keywords' }).click();
    await page.waitForURL(`${BASE_URL}/search-keyword`);
    await page.getByRole('heading', { name: 'Search Keywords', level: 1 }).waitFor();
    expect(await nav.getByRole('link', { name: 'Search Keywords' }).getAttribute('data-active')).toBe('true');
    expect(await nav.getByRole('link', { name: 'Overview' }).getAttribute('data-active')).toBeNull();
    await screenshot(page, 'shell-menu-seller');
    await context.close();
  });

  it('shows a team member holding get_campaigns only what they may use', async () => {
    const { context, page } = await openQuietPage(browser());
    await signInTeamMember(page, DEMO_SUPPORT);

    expect(await menuOf(page)).toEqual([
      '# Dashboard', 'Referral Program', 'Contest', 'Calendar',
      '# Campaigns', 'All Campaigns', 'Promotions', 'Collections', 'Bulk campaigns', 'On promotion',
      '# Storefronts', 'All Stores', 'Product Reviews', 'Search Keywords', 'Social Feed',
      '# Products', 'Stock status',
      '# Settings', 'Domains', 'API Keys',
    ]);
    await screenshot(page, 'shell-menu-team-member');
    await context.close();
  });

  it('shows a designer only Design and the Designer label', async () => {
    const { context, page } = await openQuietPage(browser());
    await page.goto('/auth/login?designer=1');
    await submitLogin(page, DESIGNER, DEMO_PASSWORD);
    await waitForDashboard(page, DESIGNER);

    expect(await menuOf(page)).toEqual(['Design']);
    await page.getByTestId('designer-label').waitFor();
    await screenshot(page, 'shell-menu-designer');
    await context.close();
  });

  it('shows a fulfillment-domain user only Fulfill Orders, Storefronts and Billing & Payouts', async () => {
    const { context, page } = await openQuietPage(browser(), originOnHost('fulfill.localhost'));
    await signIn(page, DEMO_SELLER);

    expect(await menuOf(page)).toEqual([
      '# Orders', 'Fulfill Orders',
      '# Storefronts', 'All Stores', 'Search Keywords', 'Social Feed',
      'Billing & Payouts',
    ]);
    await screenshot(page, 'shell-menu-fulfillment-domain');
    await context.close();
  });

  it('moves Fulfill Orders to the top for the fulfill tag', async () => {
    const { context, page } = await openQuietPage(browser());
    await signIn(page, VETERAN);

    const menu = await menuOf(page);
    expect(menu.slice(0, 2)).toEqual(['Fulfill Orders', '# Dashboard']);
    expect(menu.filter((label) => label === 'Fulfill Orders')).toHaveLength(1);
    await screenshot(page, 'shell-menu-fulfill-tag');
    await context.close();
  });
});

describe('shell redirects', () => {
  const browser = suiteBrowser();

  it('sends a seller without the beta tag from the AI design pages to /, and lets a beta user in', async () => {
    const { context, page } = await openQuietPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/ai-design/history');
    await page.waitForURL(`${BASE_URL}/`);
    expect(pathOf(page)).toBe('/');
    await context.close();

    const beta = await openQuietPage(browser());
    await signIn(beta.page, VETERAN);
    await beta.page.goto('/ai-design');
    await beta.page.getByRole('heading', { name: 'AI Design', level: 1 }).waitFor();
    expect(pathOf(beta.page)).toBe('/ai-design');
    await beta.context.close();
  });

  it('sends a user tagged "old bulk campaign" from a regular campaign to the old bulk editor', async () => {
    const { context, page } = await openQuietPage(browser());
    await signIn(page, VETERAN);
    await page.goto('/campaigns/edit/42');
    await page.waitForURL(`${BASE_URL}/campaigns/bulk_v2/42`);
    await page.getByRole('heading', { name: 'Bulk Campaign', level: 1 }).waitFor();
    await screenshot(page, 'shell-old-bulk-campaign');
    await context.close();
  });

  it('shows the maintenance page while the platform is in maintenance, admins excepted', async () => {
    const { context, page } = await openQuietPage(browser());
    await signIn(page, DEMO_SELLER);
    await setMaintenance(true);
    try {
      await page.goto('/orders');
      await page.waitForURL(`${BASE_URL}/maintenance`);
      await page.getByRole('heading', { name: 'We are down for maintenance' }).waitFor();
      // The blank layout: no menu, no top bar.
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
      await screenshot(page, 'shell-maintenance');

      const admin = await openQuietPage(browser());
      await admin.page.goto('/auth/login?designer=1');
      await submitLogin(admin.page, DEMO_ADMIN, DEMO_PASSWORD);
      await waitForDashboard(admin.page, DEMO_ADMIN);
      await admin.page.goto('/notifications');
      await admin.page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      expect(pathOf(admin.page)).toBe('/notifications');
      await admin.context.close();
    } finally {
      await setMaintenance(false);
    }
    await page.goto('/maintenance');
    await page.waitForURL(`${BASE_URL}/`);
    await context.close();
  });
});

describe('the top bar and sidebar', () => {
  const browser = suiteBrowser();

  it('shows a beta seller the AI design link, both balances and the SMS credits', async () => {
    const { context, page } = await openQuietPage(browser());
    await signIn(page, VETERAN);

    await page.getByRole('link', { name: 'AI design' }).waitFor();
    const sidebar = page.getByTestId('sidebar-balance');
    expect(await sidebar.innerText()).toMatch(/Balance\s+USD 1,284\.50\s+Balance 2\s+USD 25\.50\s+SMS credits\s+320/);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Balance: USD 1,284.50' }).waitFor();
    await page.getByRole('menuitem', { name: 'Balance 2: USD 25.50' }).waitFor();
    await screenshot(page, 'shell-top-bar-balances');
    await page.keyboard.press('Escape');

    await sidebar.getByRole('link', { name: '320' }).click();
    await page.waitForURL(`${BASE_URL}/sms/topup`);
    await page.getByRole('heading', { name: 'SMS Credits Top-up', level: 1 }).waitFor();
    await context.close();
  });

  it('shows a seller without beta no AI design link and no Balance 2', async () => {
    const { context, page } = await openQuietPage(browser());
    await signIn(page, DEMO_SELLER);

    await page.getByTestId('sidebar-balance').waitFor();
    expect(await page.getByRole('link', { name: 'AI design' }).count()).toBe(0);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: /^Balance: USD/ }).waitFor();
    expect(await page.getByRole('menuitem', { name: /Balance 2/ }).count()).toBe(0);
    await context.close();
  });

  it('brands the login page by host', async () => {
    await setConfig('brand.second.hosts', 'ink.localhost');
    try {
      const { context, page } = await openQuietPage(browser(), originOnHost('ink.localhost'));
      await page.goto('/auth/login');
      await page.locator('[data-brand="second"]').filter({ hasText: 'Inkwell' }).waitFor();
      await screenshot(page, 'shell-brand-second-login');
      await context.close();
    } finally {
      await setConfig('brand.second.hosts', '');
    }
    const { context, page } = await openQuietPage(browser());
    await page.goto('/auth/login');
    await page.locator('[data-brand="default"]').filter({ hasText: 'Pressroom' }).waitFor();
    await context.close();
  });
});
