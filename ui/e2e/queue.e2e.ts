import { describe, expect, it } from 'vitest';
import {
  BASE_URL,
  DEMO_PASSWORD,
  DEMO_SELLER,
  openPage,
  screenshot,
  suiteBrowser,
  TOKEN_COOKIE,
} from './support/stack';

const DEMO_ADMIN = 'admin@example.com';

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

interface Ping {
  id: number;
  service: string;
  completed_at: string | null;
  completed_by: string;
}

async function call<T>(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: Envelope<T> }> {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Envelope<T> };
}

async function login(kind: 'seller' | 'admin', email: string): Promise<string> {
  const { status, body } = await call<{ access_token: string }>('POST', `/api/auth/${kind}/login`, undefined, {
    email,
    password: DEMO_PASSWORD,
  });
  expect(status).toBe(200);
  return body.data.access_token;
}

describe('the task queue of the running stack', () => {
  const browser = suiteBrowser();

  it.each(['worker', 'renderer'])('round-trips system:ping through Redis to the %s process', async (service) => {
    const admin = await login('admin', DEMO_ADMIN);
    const requested = await call<Ping>('POST', '/api/admin/system/pings', admin, { service });
    expect(requested.status).toBe(202);
    expect(requested.body.data.completed_at).toBeNull();

    const deadline = Date.now() + 20_000;
    let ping = requested.body.data;
    while (ping.completed_at === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ping = (await call<Ping>('GET', `/api/admin/system/pings/${ping.id}`, admin)).body.data;
    }
    expect(ping.completed_at).not.toBeNull();
    expect(ping.completed_by).toBe(service);
  });

  it('opens the queue monitor for the admin and refuses a seller', async () => {
    const seller = await login('seller', DEMO_SELLER);
    const admin = await login('admin', DEMO_ADMIN);
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
    await asAdmin.page.getByText('worker.interactive').first().waitFor();
    await screenshot(asAdmin.page, 'queue-monitor');
    await asAdmin.context.close();
  });
});
