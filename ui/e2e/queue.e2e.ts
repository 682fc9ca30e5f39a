import { describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN } from './support/accounts';
import { BASE_URL, DEMO_PASSWORD, DEMO_SELLER, openPage, screenshot, suiteBrowser, TOKEN_COOKIE } from './support/stack';

interface Ping {
  id: number;
  service: string;
  completed_at: string | null;
  completed_by: string;
}

describe('the task queue of the running stack', () => {
  const browser = suiteBrowser();

  it.each(['worker', 'renderer'])('round-trips system:ping through Redis to the %s process', async (service) => {
    const admin = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
    const requested = await api<Ping>('POST', '/admin/system/pings', admin, { service });
    expect(requested.status).toBe(202);
    expect(requested.body.data.completed_at).toBeNull();

    const deadline = Date.now() + 20_000;
    let ping = requested.body.data;
    while (ping.completed_at === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ping = (await api<Ping>('GET', `/admin/system/pings/${ping.id}`, admin)).body.data;
    }
    expect(ping.completed_at).not.toBeNull();
    expect(ping.completed_by).toBe(service);
  });

  it('opens the queue monitor for the admin and refuses a seller', async () => {
    const seller = await apiLogin(DEMO_SELLER);
    const admin = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
    const host = new URL(BASE_URL).hostname;

    const asSeller = await openPage(browser());
    await asSeller.context.addCookies([{ name: TOKEN_COOKIE, value: seller, domain: host, path: '/' }]);
    const refused = await asSeller.page.goto('/admin/queues');
    expect(refused?.status()).toBe(403);
    await asSeller.context.close();

    const asAdmin = await openPage(browser());
    await asAdmin.context.addCookies([{ name: TOKEN_COOKIE, value: admin, domain: host, path: '/' }]);
    const opened = await asAdmin.page.goto('/admin/queues');
    expect(opened?.status()).toBe(200);
    // The queue list names it; a chart's hidden tooltip may name it too.
    await asAdmin.page.getByText('worker.interactive').filter({ visible: true }).first().waitFor();
    await screenshot(asAdmin.page, 'queue-monitor');
    await asAdmin.context.close();
  });
});
