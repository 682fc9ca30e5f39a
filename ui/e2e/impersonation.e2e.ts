import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN } from './support/accounts';
import { BASE_URL, DEMO_PASSWORD, DEMO_SELLER, openPage, pathOf, screenshot, submitLogin, suiteBrowser, waitForDashboard } from './support/stack';

const DESIGNER = 'designer@example.com';

async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
}

async function signInStaff(page: Page, email: string): Promise<void> {
  await page.goto('/auth/login?designer=1');
  await submitLogin(page, email, DEMO_PASSWORD);
  await waitForDashboard(page, email);
}

async function impersonateSeller(page: Page): Promise<void> {
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Sign in as a seller' }).click();
  await page.waitForURL(`${BASE_URL}/auth/login-as-seller`);
  await page.getByLabel('Seller email').fill(DEMO_SELLER);
  await page.getByRole('button', { name: 'Sign in as seller' }).click();
  await waitForDashboard(page, DEMO_SELLER);
  await page.getByTestId('impersonating').waitFor();
}

describe('admins and designers at home, and the way back from a seller’s account', () => {
  const browser = suiteBrowser();

  it('gives the admin a home of admin tools and the queue monitor in the menu', async () => {
    const { context, page } = await openPage(browser());
    await signInStaff(page, DEMO_ADMIN);
    const home = page.getByTestId('staff-home');
    await home.getByText('Admin tools').waitFor();
    await home.getByText('Queue monitor').waitFor();
    expect(await page.getByText('Getting started').count()).toBe(0);
    expect(await page.getByText('Launch your first campaign', { exact: false }).count()).toBe(0);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Queue monitor', 'Production', 'Payouts', 'Stock status', 'Mail outbox']);
    await screenshot(page, 'admin-home');
    // The monitor is the bff's own page: the link leaves the app for it, and the admin's session opens it.
    expect(await nav.getByRole('link', { name: 'Queue monitor' }).getAttribute('href')).toBe('/admin/queues');
    const monitor = await page.goto('/admin/queues');
    expect(monitor?.status()).toBe(200);
    await context.close();
  });

  it('takes an impersonating admin back to the admin account, hiding what does not apply meanwhile', async () => {
    const { context, page } = await openPage(browser());
    await signInStaff(page, DEMO_ADMIN);
    await impersonateSeller(page);
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Back to admin' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Switch Account' }).count()).toBe(0);
    expect(await page.getByRole('menuitem', { name: 'My Account', exact: true }).count()).toBe(0);
    await screenshot(page, 'impersonation-menu');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Back to admin' }).click();
    const toast = page.getByText('You are back in your admin account.');
    await toast.waitFor();
    await waitForDashboard(page, DEMO_ADMIN);
    await page.getByTestId('staff-home').getByText('Admin tools').waitFor();
    expect(await page.getByTestId('impersonating').count()).toBe(0);
    await screenshot(page, 'impersonation-back-to-admin');
    // The toast waits while the pointer rests on it (it was over the button): move away and let it go.
    await page.mouse.move(600, 600);
    await toast.waitFor({ state: 'detached', timeout: 15_000 });

    // Signing out of an impersonation lands on the admin's own login, not the seller's.
    await impersonateSeller(page);
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${BASE_URL}/auth/login?designer`);
    expect(pathOf(page)).toBe('/auth/login?designer');
    await context.close();
  });

  it('gives a designer a home that leads to the review queue', async () => {
    const { context, page } = await openPage(browser());
    await signInStaff(page, DESIGNER);
    const home = page.getByTestId('staff-home');
    await home.getByText('Design review').waitFor();
    expect(await page.getByText('Getting started').count()).toBe(0);
    expect(await page.getByText('Launch your first campaign', { exact: false }).count()).toBe(0);
    await screenshot(page, 'designer-home');
    await home.getByText('Design review').click();
    await page.waitForURL(`${BASE_URL}/orders/design`);
    await context.close();
  });
});
