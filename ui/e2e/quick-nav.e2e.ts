import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_SUPPORT, signInTeamMember } from './support/accounts';
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

/** The picker's search field, found by its placeholder. */
const picker = (page: Page) => page.getByPlaceholder('Go to page');
/** The destinations the picker lists now. */
const offered = (page: Page) => page.locator('[data-action]');

describe('quick navigation', () => {
  const browser = suiteBrowser();

  it('opens with Ctrl+G, filters as the seller types and lands on the chosen page', async () => {
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);

    await page.keyboard.press('Control+G');
    await picker(page).waitFor();
    await offered(page).filter({ hasText: 'Referral Program' }).waitFor();
    // The demo seller holds the pricing tag (bff/seed): Pricing is offered.
    expect(await offered(page).filter({ hasText: /^Pricing/ }).count()).toBe(1);
    await screenshot(page, 'quick-nav-open');

    await picker(page).fill('cust');
    await offered(page).filter({ hasText: 'Customers' }).waitFor();
    expect(await offered(page).count()).toBe(1);
    await screenshot(page, 'quick-nav-filtered');

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${BASE_URL}/customers`);
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    await picker(page).waitFor({ state: 'hidden' });
    await screenshot(page, 'quick-nav-landed');

    // A click works as well, and keeps the destination's query.
    await page.keyboard.press('Control+G');
    await picker(page).fill('referral');
    await offered(page).filter({ hasText: 'Referral Program' }).click();
    await page.waitForURL(`${BASE_URL}/referral?sort_by=sold_items`);
    expect(pathOf(page)).toBe('/referral?sort_by=sold_items');
    await page.getByRole('heading', { name: 'Referral Program', level: 1 }).waitFor();
    await context.close();
  });

  it('offers a team member only what the menu shows them', async () => {
    const { context, page } = await openPage(browser());
    await signInTeamMember(page, DEMO_SUPPORT);

    await page.keyboard.press('Control+G');
    await picker(page).fill('order');
    await page.getByText('No page matches.').waitFor();
    await screenshot(page, 'quick-nav-team-member');
    await picker(page).fill('campaign');
    await offered(page).filter({ hasText: 'All Campaigns' }).waitFor();
    await context.close();
  });

  it('clears local storage and reloads on Shift+F5 and Ctrl+Shift+R', async () => {
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);

    for (const keys of ['Shift+F5', 'Control+Shift+R']) {
      await page.evaluate(() => window.localStorage.setItem('pressroom-e2e', 'kept?'));
      await Promise.all([page.waitForEvent('load'), page.keyboard.press(keys)]);
      await waitForDashboard(page, DEMO_SELLER);
      expect(await page.evaluate(() => window.localStorage.getItem('pressroom-e2e')), keys).toBeNull();
    }
    await context.close();
  });
});
