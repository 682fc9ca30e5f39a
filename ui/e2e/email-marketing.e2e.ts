import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN, DEMO_TEAM, freshEmail, outboxLink, signInTeamMember } from './support/accounts';
import { BASE_URL, DEMO_PASSWORD, DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/**
 * A fake Klaviyo the stack's bff and worker reach (scripts/test points PRESSROOM_KLAVIYO_BASE_URL at
 * this port): it checks the private-key authorization and the revision header, keeps the profiles
 * it is sent by e-mail, answers every third import with 429, and can hold one import until the test
 * has seen the progress it expects.
 */
const KLAVIYO_PORT = Number(process.env.PRESSROOM_E2E_KLAVIYO_PORT ?? '0');
const GOOD_KEY = 'pk_e2e_good_key_7890';
const LIST = 'XyZ123';
const BAD_KEY_DETAIL = 'Missing or invalid private key.';
const PROFILES = 1000;

class FakeKlaviyo {
  readonly profiles = new Map<string, unknown>();
  readonly members = new Set<string>();
  readonly violations: string[] = [];
  imports = 0;
  rateLimited = 0;
  /** The import (1-based) to hold, and the promise that releases it. */
  holdAt = 0;
  private release: () => void = () => undefined;
  private held = new Promise<void>((resolve) => (this.release = resolve));
  private server: Server | undefined;

  releaseHeld(): void {
    this.release();
  }

  start(port: number): Promise<void> {
    this.server = createServer((req, res) => {
      void this.serve(req).then(([status, body, headers]) => {
        res.writeHead(status, { 'Content-Type': 'application/vnd.api+json', ...headers });
        res.end(JSON.stringify(body));
      });
    });
    return new Promise((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    this.release();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private refuse(status: number, detail: string): [number, unknown, Record<string, string>] {
    return [status, { errors: [{ status, code: 'error', title: detail, detail }] }, {}];
  }

  private async serve(req: IncomingMessage): Promise<[number, unknown, Record<string, string>]> {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    if (req.headers.revision !== '2024-10-15') {
      this.violations.push(`revision ${String(req.headers.revision)}`);
      return this.refuse(400, 'missing revision');
    }
    if (req.headers.authorization !== `Klaviyo-API-Key ${GOOD_KEY}`) return this.refuse(401, BAD_KEY_DETAIL);
    if (req.method === 'GET' && req.url?.startsWith('/api/lists/')) {
      const id = req.url.slice('/api/lists/'.length).replace(/\/$/, '');
      if (id !== LIST) return this.refuse(404, `A list with id ${id} does not exist.`);
      return [200, { data: { type: 'list', id, attributes: { name: 'Newsletter' } } }, {}];
    }
    if (req.method !== 'POST' || req.url !== '/api/profile-bulk-import-jobs/') {
      this.violations.push(`unexpected ${String(req.method)} ${String(req.url)}`);
      return this.refuse(404, 'not found');
    }
    if ((this.imports + this.rateLimited + 1) % 3 === 0) {
      this.rateLimited++;
      return [429, { errors: [{ status: 429, detail: 'Request was throttled.' }] }, { 'Retry-After': '0' }];
    }
    const body = JSON.parse(raw) as {
      data: {
        type: string;
        attributes: { profiles: { data: { type: string; attributes: { email: string } }[] } };
        relationships: { lists: { data: { type: string; id: string }[] } };
      };
    };
    const lists = body.data.relationships.lists.data;
    if (body.data.type !== 'profile-bulk-import-job' || lists.length !== 1 || lists[0]?.id !== LIST) {
      this.violations.push(`payload ${raw.slice(0, 200)}`);
      return this.refuse(400, 'bad payload');
    }
    if (this.imports + 1 === this.holdAt) await this.held;
    for (const p of body.data.attributes.profiles.data) {
      if (p.type !== 'profile' || !p.attributes.email.includes('@')) this.violations.push(`profile ${JSON.stringify(p)}`);
      this.profiles.set(p.attributes.email.toLowerCase(), p.attributes);
      this.members.add(p.attributes.email.toLowerCase());
    }
    this.imports++;
    return [202, { data: { type: 'profile-bulk-import-job', id: `job-${this.imports}` } }, {}];
  }
}

describe('email marketing', () => {
  const browser = suiteBrowser();
  const klaviyo = new FakeKlaviyo();

  beforeAll(async () => {
    if (!KLAVIYO_PORT) throw new Error('PRESSROOM_E2E_KLAVIYO_PORT is not set: run through scripts/test, which points the stack at it.');
    await klaviyo.start(KLAVIYO_PORT);
  });
  afterAll(() => klaviyo.stop());

  it('connects Klaviyo, refusing a wrong key, and syncs 1,000 profiles with visible progress', async () => {
    const token = await apiLogin(DEMO_SELLER);
    const stores = await api<{ id: number }[]>('GET', '/seller/email-marketing/stores', token);
    const storeId = stores.body.data[0]!.id;
    const csv = ['email,first_name,last_name', ...Array.from({ length: PROFILES }, (_, i) => `fan${i}@example.com,Fan,${i}`)].join('\n');
    const imported = await api('POST', '/seller/email-marketing/subscribers/import', token, { store_id: storeId, csv });
    expect(imported.status).toBe(200);
    const before = await api('GET', `/seller/store/${storeId}/email-marketing-klaviyo`, token);

    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/email-marketing/settings');
    const form = page.getByRole('form', { name: 'Klaviyo connection' });
    await form.getByLabel('Private API key').fill('pk_wrong');
    await form.getByLabel('List ID').fill(LIST);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('alert').filter({ hasText: `Klaviyo refused the connection: ${BAD_KEY_DETAIL}` }).waitFor();
    await screenshot(page, 'email-marketing-klaviyo-refused');
    // Nothing was stored.
    expect((await api('GET', `/seller/store/${storeId}/email-marketing-klaviyo`, token)).body).toEqual(before.body);

    await form.getByLabel('Private API key').fill(GOOD_KEY);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Klaviyo is connected.').waitFor();
    await page.getByTestId('klaviyo-state').filter({ hasText: 'Connected' }).waitFor();
    const masked = await page.getByLabel('Private API key').inputValue();
    expect(masked.endsWith('7890') && !masked.includes('good_key')).toBe(true);

    // The fifth page waits until the screen has shown the four before it.
    klaviyo.holdAt = 5;
    await page.getByRole('button', { name: 'Sync profiles' }).click();
    await page.getByTestId('sync-count').filter({ hasText: `400 / ${PROFILES} profiles` }).waitFor();
    await screenshot(page, 'email-marketing-sync-progress');
    klaviyo.releaseHeld();
    await page.getByTestId('sync-count').filter({ hasText: `${PROFILES} / ${PROFILES} profiles` }).waitFor({ timeout: 60_000 });
    await page.getByTestId('sync-progress').getByText('done').waitFor();
    await screenshot(page, 'email-marketing-sync-done');

    expect(klaviyo.violations).toEqual([]);
    expect(klaviyo.rateLimited).toBeGreaterThan(0);
    for (let i = 0; i < PROFILES; i++) expect(klaviyo.members.has(`fan${i}@example.com`)).toBe(true);
    await context.close();
  });

  it('imports a CSV file, searches and unsubscribes on the subscribers screen', async () => {
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/email-marketing/subscribers');
    const who = `reader${Date.now().toString(36)}`;
    const csv = `email,first_name,last_name\n${who}@example.com,Rea,Der\nnot-an-address,X,Y\n`;
    await page.locator('input[type=file]').setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText('1 subscribers imported, 0 updated, 1 skipped.').waitFor();
    await page.getByText('Line 3: "not-an-address" is not a valid e-mail address.').waitFor();
    await page.getByPlaceholder('Search by email or name').fill(who);
    const row = page.getByTestId('subscriber').filter({ hasText: `${who}@example.com` });
    await row.getByText('subscribed').waitFor();
    await expect.poll(() => page.getByTestId('subscriber').count()).toBe(1);
    await row.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByText('The subscriber has been unsubscribed.').waitFor();
    await row.getByText('unsubscribed').waitFor();
    await screenshot(page, 'email-marketing-subscribers');
    await context.close();
  });

  it('creates, renames and deletes a sender', async () => {
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/email-marketing/senders');
    const mailbox = `hello${Date.now().toString(36)}`;
    const form = page.getByRole('form', { name: 'Create sender' });
    await form.getByRole('combobox', { name: 'Domain' }).click();
    await page.getByRole('option', { name: 'mail.sams-print-shop.pressroom.local' }).click();
    await form.getByRole('textbox', { name: 'Username' }).fill('not valid');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill("Sam's Shop");
    await form.getByRole('button', { name: 'Create sender' }).click();
    await form.getByText('The username must be a valid mailbox name', { exact: false }).waitFor();
    await form.getByRole('textbox', { name: 'Username' }).fill(mailbox);
    await form.getByRole('button', { name: 'Create sender' }).click();
    await page.getByText('The sender has been created.').waitFor();
    const row = page.getByTestId('sender').filter({ hasText: `${mailbox}@mail.sams-print-shop.pressroom.local` });
    await row.getByRole('button', { name: 'Check' }).click();
    await row.getByText('verified').waitFor();
    await screenshot(page, 'email-marketing-senders');

    await row.getByRole('button', { name: 'Rename' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename sender' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill("Sam's News");
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The sender has been updated.').waitFor();
    await row.getByText("Sam's News").waitFor();

    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirm.getByText("You won't be able to revert this!", { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Yes, delete it!' }).click();
    await page.getByText('The sender has been deleted.').waitFor();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });

  it('keeps a team member without update_campaign and a seller without the tag out, in the UI and the API', async () => {
    // A team member of the seller whose permissions lack update_campaign.
    const team = await openPage(browser());
    await signInTeamMember(team.page, DEMO_TEAM);
    for (const path of ['/email-marketing/settings', '/email-marketing/senders', '/email-marketing/subscribers', '/email-marketing/campaigns']) {
      await team.page.goto(path);
      await team.page.getByTestId('needs-permission').getByText('Edit campaigns, pricing and email marketing', { exact: false }).waitFor();
    }
    await screenshot(team.page, 'email-marketing-forbidden');
    await team.context.close();
    const teamToken = await apiLogin(DEMO_TEAM);

    // A fresh verified seller, who has no email marketing tag.
    const email = freshEmail('untagged');
    const password = 'a-long-enough-password';
    expect((await api('POST', '/auth/register', undefined, { name: 'Una Tagged', email, password, password_confirmation: password })).status).toBe(200);
    const adminToken = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
    const verify = new URL(await outboxLink(adminToken, email, '/auth/verify-email'), BASE_URL);
    expect((await api('POST', '/auth/verify-email', undefined, { token: verify.searchParams.get('token') })).status).toBe(200);
    const seller = await openPage(browser());
    await signIn(seller.page, email, password);
    await seller.page.goto('/email-marketing/senders');
    await seller.page.getByTestId('needs-feature').getByText('ask Pressroom support to turn on e-mail marketing', { exact: false }).waitFor();
    await seller.page.getByText('Send e-mail campaigns from your own store domain', { exact: false }).waitFor();
    await screenshot(seller.page, 'email-marketing-locked-feature');
    expect(await seller.page.getByRole('link', { name: 'Email Marketing' }).count()).toBe(0);
    await seller.context.close();
    const sellerToken = await apiLogin(email, password);

    const owner = await apiLogin(DEMO_SELLER);
    const storeId = (await api<{ id: number }[]>('GET', '/seller/email-marketing/stores', owner)).body.data[0]!.id;
    for (const token of [teamToken, sellerToken]) {
      for (const [method, path] of [
        ['GET', `/seller/store/${storeId}/email-marketing-klaviyo`],
        ['PUT', `/seller/store/${storeId}/email-marketing-klaviyo`],
        ['POST', `/seller/store/${storeId}/email-marketing-klaviyo/sync-profiles`],
        ['GET', '/seller/email-marketing/senders'],
        ['POST', '/seller/email-marketing/senders'],
        ['DELETE', '/seller/email-marketing/senders/1'],
        ['GET', '/seller/email-marketing/subscribers'],
      ] as const) {
        const answer = await api(method, path, token, method === 'GET' ? undefined : {});
        expect({ method, path, status: answer.status, success: answer.body.success }).toEqual({ method, path, status: 403, success: false });
      }
    }
  });
});
