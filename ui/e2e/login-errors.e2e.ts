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
  waitForDashboard,
} from './support/stack';

describe('login errors', () => {
  const browser = suiteBrowser();

  it('shows the server message for a wrong password, then accepts the right one', async () => {
    const { context, page } = await openPage(browser());
    await page.goto('/auth/login');

    await submitLogin(page, DEMO_SELLER, 'not-the-password');

    const alert = page.getByRole('alert').filter({ hasText: 'These credentials do not match our records.' });
    await alert.waitFor();
    expect(pathOf(page)).toBe('/auth/login');
    await screenshot(page, 'login-wrong-password');

    // A successful login also resets the account's failure count in the bff's throttle.
    await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${BASE_URL}/`);
    await waitForDashboard(page, DEMO_SELLER);
    await context.close();
  });

  it('validates the form in the browser before calling the bff', async () => {
    const { context, page } = await openPage(browser());
    const loginCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/')) loginCalls.push(request.url());
    });
    await page.goto('/auth/login');

    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByText('The email field is required.').waitFor();
    await page.getByText('The password field is required.').waitFor();
    expect(loginCalls).toEqual([]);
    await screenshot(page, 'login-validation');
    await context.close();
  });
});
