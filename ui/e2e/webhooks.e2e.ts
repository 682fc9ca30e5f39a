import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import { buy, orderIdOf, sql, STORE_URL } from './support/shop';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/** A request a local receiver got, and what it answered. */
interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  status: number;
}

/** A receiver on loopback (the e2e stack allows 127.0.0.0/8 for webhooks, docs/webhooks.md); `answer` picks each status. */
async function receiver(answer: (r: Omit<Received, 'status'>, earlier: Received[]) => number) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const status = answer(r, got);
      got.push({ ...r, status });
      res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status < 300 ? 'thanks' : 'try again later');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { got, url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function until(what: string, ok: () => boolean, ms = 30_000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const header = (r: Received, name: string) => String(r.headers[name.toLowerCase()] ?? '');

describe('a seller sends order events to a signed webhook and to Slack, and reads the delivery log (docs/webhooks.md)', () => {
  const browser = suiteBrowser();
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('adds both endpoints; the events of a paid and shipped order reach them in order, retried once; the log replays one', async () => {
    // The custom receiver refuses the first try of each event, so the log shows a retry.
    const custom = await receiver((r, earlier) => (earlier.some((e) => header(e, 'Pressroom-Event-Id') === header(r as Received, 'Pressroom-Event-Id')) ? 200 : 500));
    const slack = await receiver(() => 200);
    cleanups.push(custom.close, slack.close);
    const seller = await apiLogin(DEMO_SELLER);
    cleanups.push(async () => {
      const list = await api<{ id: number }[]>('GET', '/settings/notification/endpoints', seller);
      for (const e of list.body.data) await api('DELETE', `/settings/notification/endpoints/${e.id}`, seller);
      await api('PUT', '/seller/notifications', seller, { mark_all_as_read: true });
    });

    const { page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/settings/notification');
    await page.getByRole('heading', { name: 'Notification settings' }).waitFor();
    await page.getByText('No endpoints yet. Add one to receive your order events.').waitFor();

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.getByLabel('Name').fill('Order system');
    await dialog.getByLabel('URL').fill('http://169.254.169.254/latest/meta-data');
    await dialog.getByRole('button', { name: 'Save endpoint' }).click();
    await dialog.getByText('The URL must point at a public address (not loopback, private or link-local).').waitFor();
    await screenshot(page, 'webhooks-refused-address');
    await dialog.getByLabel('URL').fill(`${custom.url}/hooks/pressroom`);
    await dialog.getByRole('button', { name: 'Save endpoint' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.getByRole('combobox', { name: 'Channel' }).click();
    await page.getByRole('option', { name: 'Slack' }).click();
    await dialog.getByLabel('Name').fill('Team channel');
    await dialog.getByLabel('URL').fill(`${slack.url}/services/T000/B000/secret`);
    await dialog.getByRole('checkbox', { name: 'Order created' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'Order status changed' }).uncheck();
    await dialog.getByRole('button', { name: 'Save endpoint' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const rows = page.getByTestId('endpoint');
    await rows.filter({ hasText: 'Team channel' }).waitFor();
    await screenshot(page, 'webhooks-endpoints');
    const secret = (await rows.filter({ hasText: 'Order system' }).locator('code').innerText()).trim();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);

    // A buyer pays an order in the demo shop, and the seller ships it: created, paid, in production, tracking.
    const email = `webhooks-${Date.now().toString(36)}@example.com`;
    const shop = await openPage(browser(), undefined, STORE_URL);
    const number = await buy(shop.page, email, 'Wes Webhook');
    await shop.context.close();
    const orderId = orderIdOf(email, number);

    // The paid order's notification would pop up over the page: it is read first.
    expect((await api('PUT', '/seller/notifications', seller, { mark_all_as_read: true })).status).toBe(200);
    await page.goto(`/orders/detail/${orderId}`);
    await page.getByRole('heading', { name: `Order #${number}` }).waitFor();
    await page.getByRole('button', { name: 'Add tracking' }).click();
    const tracking = page.getByRole('dialog', { name: `Add tracking to order #${number}` });
    const trackingNumber = `JD${Date.now()}`;
    await tracking.getByLabel(/Carrier/).fill('DHL');
    await tracking.getByLabel(/Tracking number/).fill(trackingNumber);
    await tracking.getByLabel(/Tracking link/).fill(`https://www.dhl.com/track?id=${trackingNumber}`);
    await tracking.getByRole('button', { name: 'Save tracking' }).click();
    await tracking.waitFor({ state: 'hidden' });

    // Every event of the order reaches the custom endpoint once it has answered 200, in the order they happened,
    // after a refused first try each; every try is signed with the endpoint's secret.
    const events = Number(sql(`SELECT count(*) FROM event_outbox WHERE order_id = :'a1';`, String(orderId)));
    expect(events).toBeGreaterThanOrEqual(4);
    const mine = () => custom.got.filter((r) => r.body.includes(`"order_id":${orderId},`) || r.body.includes(`"order_id":${orderId}}`));
    const delivered = () => mine().filter((r) => r.status === 200);
    await until('every event at the custom endpoint', () => delivered().length === events);
    const sent = delivered().map((r) => JSON.parse(r.body) as { id: string; type: string; data: { status: string } });
    const ids = sent.map((e) => Number(e.id.replace('evt_', '')));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(sent[0]!.type).toBe('order.created');
    expect(sent.map((e) => e.type)).toContain('order.tracking_changed');
    expect(mine().filter((r) => r.status === 500)).toHaveLength(events);
    for (const r of custom.got) {
      const [t, v1] = header(r, 'Pressroom-Signature').split(',').map((p) => p.split('=')[1]);
      expect(createHmac('sha256', secret).update(`${t}.${r.body}`).digest('hex')).toBe(v1);
    }
    // Slack asked for tracking only, and gets it as a line of text.
    await until('the tracking message in Slack', () => slack.got.length === 1);
    expect((JSON.parse(slack.got[0]!.body) as { text: string }).text).toBe(
      `Order ${number} tracking: DHL ${trackingNumber} (https://www.dhl.com/track?id=${trackingNumber})`,
    );
    const last = sent.at(-1)!;

    await page.goto('/settings/notification');
    const customRow = rows.filter({ hasText: 'Order system' });
    await customRow.getByRole('button', { name: 'Delivery log' }).click();
    const log = page.getByTestId('delivery-log');
    await log.getByTestId('delivery').filter({ hasText: 'Delivered' }).nth(events - 1).waitFor();
    await screenshot(page, 'webhooks-log');
    await log.getByTestId('delivery').first().getByRole('button', { name: 'Tries' }).click();
    const tries = page.getByRole('dialog', { name: 'Tries of this delivery' });
    await tries.getByText('HTTP 500').waitFor();
    await tries.getByText('HTTP 200').waitFor();
    await screenshot(page, 'webhooks-tries');
    await page.keyboard.press('Escape');
    await tries.waitFor({ state: 'hidden' });

    const before = custom.got.length;
    await log.getByTestId('delivery').first().getByRole('button', { name: 'Replay' }).click();
    await until('the replay', () => custom.got.length > before && custom.got.at(-1)?.status === 200);
    expect(header(custom.got.at(-1)!, 'Pressroom-Event-Id')).toBe(last.id);
    await log.getByTestId('delivery').first().getByText('3 tries').waitFor();

    await rows.filter({ hasText: 'Team channel' }).getByRole('button', { name: 'Send test' }).click();
    await until('the test message in Slack', () => slack.got.length === 2);
    expect((JSON.parse(slack.got[1]!.body) as { text: string }).text).toMatch(/^Test message from Pressroom/);
    await page.getByTestId('delivery-log').getByText('Test message').waitFor();
    await page.getByTestId('delivery-log').getByTestId('delivery').first().getByText('Delivered').waitFor();
    await screenshot(page, 'webhooks-slack-log');
  });
});
