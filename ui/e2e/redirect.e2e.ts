import { describe, expect, it } from 'vitest';
import {
  BASE_URL,
  DEMO_PASSWORD,
  DEMO_SELLER,
  openPage,
  pathOf,
  screenshot,
  submitLogin,
  suiteBrowser,
  tokenCookie,
} from './support/stack';

describe('the login redirect', () => {
  const browser = suiteBrowser();

  it('sends a signed-out visit of /orders to the login page and back to /orders after signing in', async () => {
    const { context, page } = await openPage(browser());

    await page.goto('/orders');
    await page.waitForURL(`${BASE_URL}/auth/login?redirect=%2Forders`);
    expect(pathOf(page)).toBe('/auth/login?redirect=%2Forders');

    await submitLogin(page, DEMO_SELLER, DEMO_PASSWORD);
    await page.waitForURL(`${BASE_URL}/orders`);
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Export CSV' }).waitFor();
    await screenshot(page, 'orders-after-redirect');
    await context.close();
  });

  it('never follows a redirect parameter to another origin', async () => {
    const { context, page } = await openPage(browser());

    await page.goto(`/auth/login?redirect=${encodeURIComponent('https://example.org/steal')}`);
    await submitLogin(page, DEMO_SELLER, DEMO_PASSWORD);

    await page.waitForURL(`${BASE_URL}/`);
    expect(pathOf(page)).toBe('/');
    await context.close();
  });

  it('ends the session when the bff has revoked the token, keeping the page as redirect', async () => {
    const { context, page } = await openPage(browser());
    await page.goto('/auth/login?redirect=%2Fcampaigns');
    await submitLogin(page, DEMO_SELLER, DEMO_PASSWORD);
    await page.waitForURL(`${BASE_URL}/campaigns`);
    const token = await tokenCookie(context);

    const revoked = await fetch(`${BASE_URL}/api/auth/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(200);
    await page.reload();

    await page.waitForURL(`${BASE_URL}/auth/login?redirect=%2Fcampaigns`);
    expect(await tokenCookie(context)).toBeUndefined();
    await context.close();
  });
});
