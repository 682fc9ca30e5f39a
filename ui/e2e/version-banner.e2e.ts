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

const BANNER = 'A new version is available!';

describe('the new-version banner', () => {
  const browser = suiteBrowser();

  it('the bff reports its build to anyone', async () => {
    const response = await fetch(`${BASE_URL}/api/api3/version`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { success: boolean; data: { last_update: string } };
    expect(body.success).toBe(true);
    expect(body.data.last_update).not.toBe('');
  });

  it('appears when the polled build changes, and Update Now reloads into the new one', async () => {
    const { context, page } = await openPage(browser());
    // The bff's build only changes on a deploy; here the browser sees the answer change instead,
    // and its clock jumps the 60 s between polls.
    let build = 'build-1';
    const polled: string[] = [];
    await page.route('**/api/api3/version', async (route) => {
      polled.push(build);
      await route.fulfill({ json: { success: true, message: '', data: { last_update: build }, errors: [] } });
    });
    await page.clock.install();

    await signIn(page, DEMO_SELLER);
    await expect.poll(() => polled.length).toBeGreaterThan(0);

    // Another poll of the same build: no banner.
    await page.clock.fastForward(60_000);
    await expect.poll(() => polled.length).toBeGreaterThan(1);
    expect(await page.getByText(BANNER).count()).toBe(0);

    build = 'build-2';
    const before = polled.length;
    await page.clock.fastForward(60_000);
    await expect.poll(() => polled.length).toBeGreaterThan(before);
    await page.getByText(BANNER).waitFor();
    await screenshot(page, 'new-version-banner');

    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Update Now' }).click()]);
    await waitForDashboard(page, DEMO_SELLER);
    await expect.poll(() => polled.at(-1)).toBe('build-2');
    expect(await page.getByText(BANNER).count()).toBe(0);
    await context.close();
  });
});
