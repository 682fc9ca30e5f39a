import { describe, expect, it } from 'vitest';
import {
  BASE_URL,
  DEMO_PASSWORD,
  DEMO_SELLER,
  openPage,
  pathOf,
  PHONE_VIEWPORT,
  screenshot,
  submitLogin,
  suiteBrowser,
  tokenCookie,
  waitForDashboard,
} from './support/stack';

describe('a demo seller session', () => {
  const browser = suiteBrowser();

  it('signs in at /auth/login, lands on /, survives a reload and signs out back to the login page', async () => {
    const { context, page } = await openPage(browser());

    await page.goto('/auth/login');
    expect(await page.title()).toBe('Seller Dashboard');
    await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
    await screenshot(page, 'login');

    await submitLogin(page, DEMO_SELLER, DEMO_PASSWORD);
    await page.waitForURL(`${BASE_URL}/`);
    await waitForDashboard(page, DEMO_SELLER);
    expect(await page.getByTestId('user-roles').innerText()).toMatch(/seller/i);
    expect(await page.getByTestId('greeting').innerText()).toMatch(/^Good (morning|afternoon|evening), \S/);
    const token = await tokenCookie(context);
    expect(token).toBeTruthy();
    await screenshot(page, 'dashboard');

    await page.reload();
    await waitForDashboard(page, DEMO_SELLER);
    expect(pathOf(page)).toBe('/');

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
    await screenshot(page, 'user-menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${BASE_URL}/auth/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await tokenCookie(context)).toBeUndefined();

    // The bff has invalidated the token, not just the browser forgetting it.
    const me = await fetch(`${BASE_URL}/api/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);

    // Home without a session goes to the login page, without a redirect parameter.
    await page.goto('/');
    await page.waitForURL(`${BASE_URL}/auth/login`);
    expect(pathOf(page)).toBe('/auth/login');
    await context.close();
  });

  it('keeps the menu behind a burger on a phone', async () => {
    const { context, page } = await openPage(browser(), PHONE_VIEWPORT);
    await page.goto('/auth/login');
    await screenshot(page, 'login-phone');
    await submitLogin(page, DEMO_SELLER, DEMO_PASSWORD);
    await waitForDashboard(page, DEMO_SELLER);
    await screenshot(page, 'dashboard-phone');

    await page.getByRole('button', { name: 'Toggle menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'All Campaigns' }).click();
    await page.waitForURL(`${BASE_URL}/campaigns`);
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await screenshot(page, 'campaigns-phone');
    await context.close();
  });
});
