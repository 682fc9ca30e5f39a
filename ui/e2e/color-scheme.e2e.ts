import { describe, expect, it } from 'vitest';
import {
  BASE_URL,
  DEMO_SELLER,
  openPage,
  screenshot,
  signIn,
  suiteBrowser,
  waitForDashboard,
} from './support/stack';

describe('dark mode', () => {
  const browser = suiteBrowser();

  it('toggles from the top bar and survives a reload, kept in storage and the color-scheme cookie', async () => {
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    const scheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');
    expect(await scheme()).toBe('light');

    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    expect(await scheme()).toBe('dark');

    await page.reload();
    await waitForDashboard(page, DEMO_SELLER);
    expect(await scheme()).toBe('dark');
    expect(await page.evaluate(() => window.localStorage.getItem('color-scheme'))).toBe('dark');
    const cookies = await context.cookies(BASE_URL);
    expect(cookies.find((cookie) => cookie.name === 'color-scheme')?.value).toBe('dark');
    await screenshot(page, 'dashboard-dark');

    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    expect(await scheme()).toBe('light');
    await context.close();
  });
});
