import { describe, expect, it } from 'vitest';
import {
  BASE_URL,
  DEMO_PASSWORD,
  openPage,
  pathOf,
  screenshot,
  submitLogin,
  suiteBrowser,
  waitForDashboard,
} from './support/stack';

const DESIGNER = 'designer@example.com';

describe('the designer login', () => {
  const browser = suiteBrowser();

  it('signs a designer in through the admin endpoint when the query has `designer`', async () => {
    const { context, page } = await openPage(browser());
    const loginCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/')) loginCalls.push(new URL(request.url()).pathname);
    });

    await page.goto('/auth/login');
    await page.getByRole('link', { name: /designer sign-in/ }).click();
    await page.waitForURL(`${BASE_URL}/auth/login?designer=1`);
    await page.getByRole('heading', { name: 'Designer sign in' }).waitFor();
    await screenshot(page, 'login-designer');

    await submitLogin(page, DESIGNER, DEMO_PASSWORD);
    await page.waitForURL(`${BASE_URL}/`);
    await waitForDashboard(page, DESIGNER);
    expect(await page.getByTestId('user-roles').innerText()).toMatch(/designer/i);
    expect(loginCalls).toEqual(['/api/auth/admin/login']);
    await context.close();
  });

  it('shows the bff’s message when a designer uses the seller login', async () => {
    const { context, page } = await openPage(browser());
    await page.goto('/auth/login');

    await submitLogin(page, DESIGNER, DEMO_PASSWORD);

    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect((await alert.innerText()).trim()).not.toBe('');
    expect(pathOf(page)).toBe('/auth/login');
    await context.close();
  });
});
