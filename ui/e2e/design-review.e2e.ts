import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import {
  BASE_URL,
  DEMO_PASSWORD,
  DEMO_SELLER,
  openPage,
  PHONE_VIEWPORT,
  screenshot,
  signIn,
  submitLogin,
  suiteBrowser,
  VIEWPORT,
  waitForDashboard,
} from './support/stack';

const DESIGNER = 'designer@example.com';
const ITEMS = '/design-orders/items';

interface Item {
  id: number;
  order_number: string;
  product_name: string;
  status: string;
  print_status: string;
  manifest: { levels: number } | null;
}

async function items(token: string): Promise<Item[]> {
  const answer = await api<never>('GET', `${ITEMS}?per_page=100&order_by=id:asc`, token);
  if (answer.status !== 200) throw new Error(`queue: ${answer.status} ${answer.body.message}`);
  return (answer.body as unknown as { data: Item[] }).data;
}

const find = (list: Item[], product: string) => {
  const item = list.find((i) => i.product_name === product);
  if (!item) throw new Error(`no seeded ${product} item`);
  return item;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('design review', () => {
  const browser = suiteBrowser();
  let designer = '';
  let seller = '';

  beforeAll(async () => {
    designer = await apiLogin(DESIGNER, DEMO_PASSWORD, 'admin');
    seller = await apiLogin(DEMO_SELLER);
    // The renderer renders and tiles the seeded print files after the stack starts; the 13500 px
    // one takes longest.
    const deadline = Date.now() + 240_000;
    for (;;) {
      const list = await items(designer);
      if (list.length >= 4 && list.every((i) => i.print_status !== 'pending')) break;
      if (Date.now() > deadline) throw new Error(`print files still pending: ${JSON.stringify(list)}`);
      await sleep(2000);
    }
  }, 300_000);

  afterAll(async () => {
    // Read, so no popup waits for the other browser tests.
    await api('PUT', '/seller/notifications', seller, { mark_all_as_read: true });
  });

  it('opens a 13500 px print file by its tiles, approves one item and rejects another; the seller is told', async () => {
    const list = await items(designer);
    const aop = find(list, 'All-over-print shirt');
    const mug = find(list, 'Mug wrap');
    expect(aop.print_status).toBe('done');
    expect(aop.status).toBe('reviewing');

    const { context, page } = await openPage(browser());
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));

    await page.goto('/auth/login?designer=1');
    await submitLogin(page, DESIGNER, DEMO_PASSWORD);
    await waitForDashboard(page, DESIGNER);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Design' }).waitFor();
    expect(await nav.getByRole('link').count()).toBe(1);
    await nav.getByRole('link', { name: 'Design' }).click();
    await page.waitForURL(/\/orders\/design/);

    // The 13500 px file: fitted first, then 100%.
    await page.getByTestId('queue-item').filter({ hasText: 'PR-1002' }).click();
    await page.waitForURL(`${BASE_URL}/orders/design/${aop.id}`);
    const canvas = page.getByTestId('deep-zoom');
    await canvas.waitFor();
    // The panel follows the item opened (another may show first, while the new one loads).
    await page.getByTestId('fact-dimensions').filter({ hasText: '13500 × 16200 px' }).waitFor();
    await page.getByTestId('dpi-report').getByText('Low', { exact: true }).waitFor();
    const tilesOf = (level: number) =>
      requests.filter((p) => p.startsWith(`/api${ITEMS}/${aop.id}/tiles/1/${level}/`)).length;
    const fitted = Number(await canvas.getAttribute('data-level'));
    await expect.poll(() => tilesOf(fitted), { timeout: 15_000 }).toBeGreaterThan(0);
    await screenshot(page, 'design-review-fitted');

    await page.getByRole('button', { name: '100%' }).click();
    await page.getByTestId('zoom-level').filter({ hasText: /^100%$/ }).waitFor();
    const finest = aop.manifest?.levels ? aop.manifest.levels - 1 : -1;
    expect(await canvas.getAttribute('data-level')).toBe(String(finest));
    await expect.poll(() => tilesOf(finest), { timeout: 15_000 }).toBeGreaterThan(0);
    // A 1366 px wide window shows a few dozen 256 px tiles at 100%, never the whole level.
    expect(tilesOf(finest)).toBeLessThan(60);
    // The full file (its signed blob URL, print.png) was never fetched.
    expect(requests.filter((p) => p.includes('print.png'))).toEqual([]);
    await page.waitForTimeout(500);
    await screenshot(page, 'design-review-100');

    // Reject the all-over print with a comment, from the keyboard.
    await page.keyboard.press('r');
    const dialog = page.getByRole('dialog', { name: 'Reject the print file' });
    await dialog.getByLabel('What should the seller change?').fill('The artwork is stretched to 44 DPI: upload a larger file.');
    await dialog.getByRole('button', { name: 'Reject' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Approve the mug with A.
    await page.getByTestId('queue-item').filter({ hasText: `${mug.order_number} · Mug wrap` }).click();
    await page.waitForURL(`${BASE_URL}/orders/design/${mug.id}`);
    await page.getByTestId('review-screen').and(page.locator(`[data-item="${mug.id}"]`)).waitFor();
    await page.getByRole('button', { name: 'Approve' }).and(page.locator(':not([disabled])')).waitFor();
    await page.keyboard.press('a');
    await expect
      .poll(async () => (await items(designer)).find((i) => i.id === mug.id)?.status, { timeout: 15_000 })
      .toBe('approved');
    expect((await items(designer)).find((i) => i.id === aop.id)?.status).toBe('rejected');

    // The detail follows the tab: under Rejected it shows a rejected item, the one the queue marks.
    await page.getByText('Rejected', { exact: true }).click();
    await page.waitForURL(`${BASE_URL}/orders/design`);
    const current = page.locator('[data-testid="queue-item"][aria-current="true"]');
    await current.filter({ hasText: 'PR-1002' }).waitFor();
    await page.getByTestId('review-screen').and(page.locator(`[data-item="${aop.id}"]`)).waitFor();
    await context.close();

    // The seller reads the rejection among the notifications.
    const sellerPage = await openPage(browser());
    await signIn(sellerPage.page, DEMO_SELLER);
    await sellerPage.page.goto('/notifications');
    await sellerPage.page
      .getByTestId('notification-row')
      .filter({ hasText: 'Print file rejected: order PR-1002, All-over-print shirt' })
      .waitFor();
    await screenshot(sellerPage.page, 'design-review-seller-notified');
    await sellerPage.context.close();
  }, 120_000);

  it('compares a re-rendered print file with its first revision, side by side and by swiping', async () => {
    const shirt = find(await items(designer), 'T-shirt');
    const rerender = await api('POST', `${ITEMS}/${shirt.id}/rerender`, designer);
    expect(rerender.status).toBe(200);
    await expect
      .poll(async () => (await items(designer)).find((i) => i.id === shirt.id)?.print_status, { timeout: 120_000, interval: 1000 })
      .toBe('done');

    const { context, page } = await openPage(browser());
    await page.goto('/auth/login?designer=1');
    await submitLogin(page, DESIGNER, DEMO_PASSWORD);
    await waitForDashboard(page, DESIGNER);
    await page.goto(`/orders/design/${shirt.id}`);
    await page.getByTestId('review-screen').and(page.locator(`[data-item="${shirt.id}"]`)).waitFor();
    await page.getByRole('combobox', { name: 'Compare with revision' }).click();
    await page.getByRole('option', { name: 'Revision 1' }).click();

    // Side by side: two viewers that zoom together.
    const viewers = page.getByTestId('deep-zoom');
    await expect.poll(() => viewers.count()).toBe(2);
    await page.getByText('Revision 2 (current)').waitFor();
    await page.getByRole('button', { name: '100%' }).first().click();
    await expect.poll(async () => [await viewers.nth(0).getAttribute('data-zoom'), await viewers.nth(1).getAttribute('data-zoom')]).toEqual(['100', '100']);
    await screenshot(page, 'design-review-side-by-side');

    // Swipe: one viewer drawing both revisions, split by the slider.
    await page.getByText('Swipe', { exact: true }).click();
    await expect.poll(() => viewers.count()).toBe(1);
    await page.getByRole('slider', { name: 'Swipe between the revisions' }).waitFor();
    await screenshot(page, 'design-review-swipe');
    await context.close();
  }, 180_000);
});

// The queue's tabs at the two widths the screenshots are taken at: nothing of them cut. No print file needs to be
// ready for this, so the suite waits for none.
describe('design review layout', () => {
  const browser = suiteBrowser();

  it('shows every tab of the queue whole, in a 1366 px and in a 390 px wide window', async () => {
    for (const [name, viewport] of [
      ['desktop', VIEWPORT],
      ['phone', PHONE_VIEWPORT],
    ] as const) {
      const { context, page } = await openPage(browser(), viewport);
      await page.goto('/auth/login?designer=1');
      await submitLogin(page, DESIGNER, DEMO_PASSWORD);
      await waitForDashboard(page, DESIGNER);
      await page.goto('/orders/design');
      const tabs = page.getByTestId('review-filter');
      await tabs.waitFor();
      await page.getByTestId('review-queue').waitFor();
      const outer = await tabs.boundingBox();
      if (!outer) throw new Error('the queue tabs are not on screen');
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
      // The control sits in the window, and each tab's label inside the control (which clips what passes its edge), whole.
      expect(outer.x, `${name}: the tabs start at ${outer.x} px`).toBeGreaterThanOrEqual(0);
      expect(outer.x + outer.width, `${name}: the tabs end at ${outer.x + outer.width} px`).toBeLessThanOrEqual(widths.view);
      expect(widths.page, `${name}: the page is ${widths.page} px wide in a ${widths.view} px window`).toBeLessThanOrEqual(widths.view);
      for (const label of ['To review', 'Approved', 'Rejected', 'All']) {
        const tab = tabs.getByText(label, { exact: true });
        const box = await tab.boundingBox();
        if (!box) throw new Error(`${name}: no ${label} tab`);
        expect(box.x, `${name}: ${label} starts at ${box.x}, the tabs at ${outer.x}`).toBeGreaterThanOrEqual(outer.x);
        expect(box.x + box.width, `${name}: ${label} ends at ${box.x + box.width}, the tabs at ${outer.x + outer.width}`).toBeLessThanOrEqual(
          outer.x + outer.width,
        );
        expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth), `${name}: ${label} is cut short`).toBe(true);
      }
      // And the header's account menu is on screen too (a phone's header has room for the menus only).
      const menu = await page.getByTestId('user-menu').boundingBox();
      expect(menu && menu.x + menu.width, `${name}: the account menu ends at ${menu && menu.x + menu.width} px`).toBeLessThanOrEqual(widths.view);
      await screenshot(page, `design-review-tabs-${name}`);
      await context.close();
    }
  }, 120_000);
});
