import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN } from './support/accounts';
import { DEMO_PASSWORD, DEMO_SELLER, openPage, screenshot, signIn, submitLogin, suiteBrowser, waitForDashboard } from './support/stack';

const DESIGNER = 'designer@example.com';

/** The seller's screens, the newer ones included. */
const SELLER_SCREENS = [
  '/',
  '/campaigns',
  '/orders',
  '/invalid-address',
  '/abandoned-orders',
  '/cross-selling',
  '/customers',
  '/promotions',
  '/on-promotion',
  '/bulk-campaigns',
  '/bulk-campaigns/multi-print-spaces',
  '/personalized/artworks',
  '/personalized/fonts',
  '/collections',
  '/product/stock-status',
  '/email-marketing/campaigns',
  '/email-marketing/subscribers',
  '/email-marketing/senders',
  '/storefronts',
  '/storefronts/pages',
  '/storefronts/pages/create',
  '/blog/categories',
  '/blog/new',
  '/payouts',
  '/domains',
  '/team',
  '/notifications',
  '/settings/general',
  '/settings/notification',
  '/settings/api-keys',
  '/settings/account',
];
const DESIGNER_SCREENS = ['/', '/orders/design'];
const ADMIN_SCREENS = ['/', '/system/production', '/system/payouts', '/system/stock-status', '/system/mail'];

/** What a screen shows that it should not: codes in place of words, and badges whose label is cut. */
interface Findings {
  codes: string[];
  clipped: string[];
}

/**
 * The visible text of the page's main part that reads like a code (UPPER_SNAKE or snake_case words: a status, a
 * permission, a worker message), leaving out code samples (code, pre, kbd) and form fields; and the badges whose
 * label is wider than the badge shows.
 */
function findings(page: Page): Promise<Findings> {
  return page.evaluate(() => {
    const CODE = /\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b/;
    const root = document.querySelector('main') ?? document.body;
    const codes: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      const parent = node.parentElement;
      if (!parent || !CODE.test(text)) continue;
      if (parent.closest('code, pre, kbd, textarea, input, script, style, [data-code-sample]')) continue;
      if (!parent.checkVisibility()) continue;
      // An e-mail address or a URL may hold underscores; they are not codes.
      const words = text.split(/\s+/).filter((w) => CODE.test(w) && !w.includes('@') && !/^[a-z]+:\/\//.test(w) && !w.includes('/'));
      if (words.length > 0) codes.push(text.trim().slice(0, 120));
    }
    const clipped = Array.from(document.querySelectorAll<HTMLElement>('.mantine-Badge-label'))
      .filter((el) => el.checkVisibility() && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.textContent ?? ''} (${el.scrollWidth} > ${el.clientWidth})`);
    return { codes, clipped };
  });
}

/** Opens each screen, waits for it to settle, takes its picture and gathers what it shows wrongly. */
async function walk(page: Page, who: string, screens: readonly string[]): Promise<Record<string, Findings>> {
  const wrong: Record<string, Findings> = {};
  for (const path of screens) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    // Loaders gone: the lists and their badges are drawn.
    await page.locator('.mantine-Loader-root').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
    const found = await findings(page);
    const name = `labels-${who}${path === '/' ? '-home' : path.replace(/[/?=&]+/g, '-')}`;
    await screenshot(page, name);
    console.log(`[labels] ${who} ${path}: ${found.codes.length} codes, ${found.clipped.length} clipped badges`);
    if (found.codes.length > 0 || found.clipped.length > 0) wrong[path] = found;
  }
  return wrong;
}

describe('every screen in words: no codes, no cut badges', () => {
  const browser = suiteBrowser();
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it('as the seller', async () => {
    const { context, page } = await openPage(browser());
    closers.push(() => context.close());
    await signIn(page, DEMO_SELLER);
    // A campaign's editor and an order's page and invoice too, when the seller has them.
    const screens = [...SELLER_SCREENS];
    await page.goto('/campaigns');
    const editor = await page.locator('a[href*="/campaigns/"][href*="/edit/"]').first().getAttribute('href', { timeout: 10_000 }).catch(() => null);
    if (editor) screens.push(editor);
    await page.goto('/orders');
    const order = await page.locator('a[href^="/orders/detail/"]').first().getAttribute('href', { timeout: 10_000 }).catch(() => null);
    if (order) screens.push(order, order.replace('/detail/', '/invoice/'));
    // A store's blog and sitemap.
    await page.goto('/storefronts');
    const sitemap = await page.locator('a[href^="/storefronts/sitemap/"]').first().getAttribute('href', { timeout: 10_000 }).catch(() => null);
    if (sitemap) screens.push(sitemap, sitemap.replace('/sitemap/', '/').concat('/blog'));
    expect(await walk(page, 'seller', screens)).toEqual({});
  });

  it('as the designer', async () => {
    const { context, page } = await openPage(browser());
    closers.push(() => context.close());
    await page.goto('/auth/login?designer=1');
    await submitLogin(page, DESIGNER, DEMO_PASSWORD);
    await waitForDashboard(page, DESIGNER);
    expect(await walk(page, 'designer', DESIGNER_SCREENS)).toEqual({});
  });

  it('as the admin', async () => {
    const { context, page } = await openPage(browser());
    closers.push(() => context.close());
    await page.goto('/auth/login?designer=1');
    await submitLogin(page, DEMO_ADMIN, DEMO_PASSWORD);
    await waitForDashboard(page, DEMO_ADMIN);
    expect(await walk(page, 'admin', ADMIN_SCREENS)).toEqual({});
  });
});
