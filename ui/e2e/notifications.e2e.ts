import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN } from './support/accounts';
import {
  BASE_URL,
  DEMO_PASSWORD,
  DEMO_SELLER,
  openPage,
  screenshot,
  signIn,
  suiteBrowser,
  waitForDashboard,
} from './support/stack';

/** The demo seller's session and id, and the admin's session that posts notifications to it. */
let seller = '';
let sellerId = 0;
let admin = '';

async function post(body: Record<string, unknown>): Promise<number> {
  const answer = await api<{ id: number }>('POST', '/admin/notifications', admin, { seller_id: sellerId, ...body });
  if (answer.status !== 200) throw new Error(`post notification: ${answer.status} ${answer.body.message}`);
  return answer.body.data.id;
}

/** Marks every notification of the demo seller read, so no popup waits for the other browser tests. */
async function markAllRead(): Promise<void> {
  const answer = await api('PUT', '/seller/notifications', seller, { mark_all_as_read: true });
  if (answer.status !== 200) throw new Error(`mark all as read: ${answer.status} ${answer.body.message}`);
}

const isPopupCall = (r: { url(): string }) => new URL(r.url()).pathname === '/api/seller/notifications/popup';
const isBellCall = (r: { url(): string }) => new URL(r.url()).pathname === '/api/seller/notifications/bell';

describe('notifications', () => {
  const browser = suiteBrowser();

  beforeAll(async () => {
    seller = await apiLogin(DEMO_SELLER);
    admin = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
    sellerId = (await api<{ id: number }>('GET', '/me', seller)).body.data.id;
    await markAllRead();
  });
  afterAll(async () => {
    await markAllRead();
  });

  it('pops up new notifications once; "Don\'t show this notification" and type 2 keep them away', async () => {
    const older = await post({
      subject: 'Scheduled maintenance on Sunday',
      message: '<p>The dashboard is read-only from <strong>02:00 to 03:00 UTC</strong>.</p>',
      is_warning: true,
    });
    const newer = await post({
      subject: 'New: embroidery products',
      message: '<p>Embroidered caps and polos are in the catalogue.</p>',
      call_to_action_link: '/campaigns',
      type: 2,
    });

    const { context, page } = await openPage(browser(), undefined, undefined, { notificationPopup: true });
    const reports: unknown[] = [];
    page.on('request', (r: Request) => {
      if (new URL(r.url()).pathname === '/api/seller/notifications/read-status') reports.push(r.postDataJSON());
    });
    await signIn(page, DEMO_SELLER);
    const popup = page.getByRole('dialog');
    await popup.getByRole('heading', { name: 'New: embroidery products' }).waitFor();
    expect(await page.getByTestId('notification-popup-step').textContent()).toBe('1 / 2');
    await screenshot(page, 'notifications-popup');

    await popup.getByRole('button', { name: 'Next' }).click();
    await popup.getByRole('heading', { name: 'Scheduled maintenance on Sunday' }).waitFor();
    expect(await page.getByTestId('notification-popup-step').textContent()).toBe('2 / 2');
    await popup.getByRole('checkbox', { name: "Don't show this notification" }).check();
    await screenshot(page, 'notifications-popup-last');
    await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/api/seller/notifications/read-status'),
      popup.getByRole('button', { name: 'Close' }).click(),
    ]);
    await popup.waitFor({ state: 'hidden' });
    await expect.poll(() => reports.length).toBe(2);
    expect(reports).toEqual(
      expect.arrayContaining([
        { notification_ids: [older], action: 1 },
        { notification_ids: [newer], action: 2 },
      ]),
    );

    // Once per 60 minutes: a reload does not even ask.
    const asked: string[] = [];
    page.on('request', (r: Request) => {
      if (isPopupCall(r)) asked.push(r.url());
    });
    await Promise.all([page.waitForResponse(isBellCall), page.reload()]);
    await waitForDashboard(page, DEMO_SELLER);
    expect(asked).toEqual([]);
    await context.close();

    // A fresh browser (no cooldown, no local list) asks, and the bff offers neither again.
    const fresh = await openPage(browser(), undefined, undefined, { notificationPopup: true });
    const [answer] = await Promise.all([fresh.page.waitForResponse(isPopupCall), signIn(fresh.page, DEMO_SELLER)]);
    expect(((await answer.json()) as { data: unknown[] }).data).toEqual([]);
    expect(await fresh.page.getByRole('dialog').count()).toBe(0);
    await fresh.context.close();
  });

  it('shows the bell count, the dropdown, the list and one notification, and marks all as read', async () => {
    await markAllRead();
    const ids: number[] = [];
    for (let i = 1; i <= 12; i++) {
      ids.push(
        await post({
          subject: `Order batch ${i} shipped`,
          message:
            `<p>Batch <strong>${i}</strong> left the print house.</p>` +
            '<img src="/nowhere.png" onerror="window.__pwned = true"><script>window.__pwned = true</script>',
          call_to_action_link: '/orders',
        }),
      );
    }
    // The popup has its own test above; openPage keeps it away here.
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);

    const bell = page.getByRole('button', { name: 'Notifications (12 unread)' });
    await bell.waitFor();
    expect(await page.getByTestId('notification-count').textContent()).toContain('12');
    await bell.click();
    const dropdown = page.getByTestId('notification-dropdown');
    await dropdown.getByRole('menuitem', { name: /Order batch 12 shipped/ }).waitFor();
    expect(await dropdown.getByRole('menuitem', { name: /Order batch/ }).count()).toBe(10);
    const list = await page.getByTestId('notification-bell-list').boundingBox();
    expect(list?.height).toBeLessThanOrEqual(250);
    await screenshot(page, 'notifications-bell');

    await dropdown.getByRole('menuitem', { name: 'View All' }).click();
    await page.waitForURL(`${BASE_URL}/notifications`);
    await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
    await page.getByTestId('notification-row').first().waitFor();
    expect(await page.getByTestId('notification-row').count()).toBe(15);
    expect(await page.locator('[data-testid="notification-row"][data-new]').count()).toBe(12);
    await screenshot(page, 'notifications-list');

    const newest = ids[ids.length - 1]!;
    // Newest first: the first such row is this run's (the stack may keep earlier runs' notifications).
    await page.getByTestId('notification-row').filter({ hasText: 'Order batch 12 shipped' }).first().click();
    await page.waitForURL(`${BASE_URL}/notifications/${newest}`);
    await page.getByRole('heading', { name: 'Order batch 12 shipped', level: 1 }).waitFor();
    const message = page.getByTestId('notification-message');
    expect(await message.locator('strong').textContent()).toBe('12');
    expect(await message.locator('script').count()).toBe(0);
    expect(await message.locator('[onerror]').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
    expect(await page.getByRole('link', { name: 'Learn more' }).getAttribute('href')).toBe('/orders');
    await page.getByRole('button', { name: 'Notifications (11 unread)' }).waitFor();
    await screenshot(page, 'notification-detail');

    await page.getByRole('link', { name: 'All notifications' }).click();
    await page.waitForURL(`${BASE_URL}/notifications`);
    const opened = page.getByTestId('notification-row').filter({ hasText: 'Order batch 12 shipped' }).first();
    await opened.waitFor();
    await expect.poll(() => opened.getAttribute('data-new')).toBeNull();

    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await page.getByText('All notifications have been marked as read.').waitFor();
    await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await expect.poll(() => page.locator('[data-testid="notification-row"][data-new]').count()).toBe(0);
    await screenshot(page, 'notifications-all-read');
    await context.close();
  });
});
