import { describe, expect, it } from 'vitest';
import {
  BASE_URL,
  DEMO_SELLER,
  openPage,
  pathOf,
  screenshot,
  signIn,
  suiteBrowser,
  waitForDashboard,
} from './support/stack';

const NOT_FOUND = 'This page could not be found';

describe('the 404 page', () => {
  const browser = suiteBrowser();

  it('shows "This page could not be found" for an unknown path and at /error/404', async () => {
    const { context, page } = await openPage(browser());

    await page.goto('/no/such/page?x=1');
    await page.getByText(NOT_FOUND, { exact: true }).waitFor();
    expect(pathOf(page)).toBe('/no/such/page?x=1');
    await screenshot(page, 'not-found');

    await page.goto('/error/404');
    await page.getByText(NOT_FOUND, { exact: true }).waitFor();
    await context.close();
  });

  it('shows the 500 page "Unknown middleware" for a route naming a guard nobody registered', async () => {
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    // Only scripts/test's build (vite --mode e2e) has this route: no real route names an unknown guard.
    await page.goto('/e2e/unknown-middleware');
    await page.getByText('Unknown middleware', { exact: true }).waitFor();
    expect((await page.getByTestId('error-status').innerText()).trim()).toBe('500');
    await screenshot(page, 'unknown-middleware');
    await context.close();
  });

  it('links back home', async () => {
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);

    await page.goto('/campaigns/nope/nothing/here');
    await page.getByText(NOT_FOUND, { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Back to home' }).click();

    await page.waitForURL(`${BASE_URL}/`);
    await waitForDashboard(page, DEMO_SELLER);
    await context.close();
  });
});
