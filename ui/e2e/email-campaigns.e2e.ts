import { describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN, outbox } from './support/accounts';
import { DEMO_PASSWORD, DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

const DOMAIN = 'mail.sams-print-shop.pressroom.local';
const SUBSCRIBERS = 40;

describe('email campaigns', () => {
  const browser = suiteBrowser();

  it('creates a campaign, sends a test, sends it to the subscribers and watches it reach sent', async () => {
    const run = Date.now().toString(36);
    const subject = `Spring sale ${run}`;
    const token = await apiLogin(DEMO_SELLER);
    const adminToken = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
    const stores = await api<{ id: number }[]>('GET', '/seller/email-marketing/stores', token);
    const storeId = stores.body.data[0]!.id;
    const domains = await api<{ id: number; domain: string }[]>('GET', '/seller/email-marketing/domains', token);
    const domainId = domains.body.data.find((d) => d.domain === DOMAIN)!.id;
    const sender = await api('POST', '/seller/email-marketing/senders', token, { store_domain_id: domainId, username: `news${run}`, name: "Sam's News" });
    expect(sender.status).toBe(200);
    const csv = ['email', ...Array.from({ length: SUBSCRIBERS }, (_, i) => `reader${i}.${run}@example.com`)].join('\n');
    expect((await api('POST', '/seller/email-marketing/subscribers/import', token, { store_id: storeId, csv })).status).toBe(200);

    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/email-marketing/campaigns');
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.waitForURL('**/email-marketing/campaigns/new');

    const form = page.getByRole('form', { name: 'Campaign' });
    await form.getByRole('button', { name: 'Save draft' }).click();
    await form.getByText('The subject field is required.').waitFor();
    await form.getByRole('textbox', { name: 'Name' }).fill(`Spring ${run}`);
    await form.getByRole('textbox', { name: 'Subject' }).fill(subject);
    await form.getByRole('combobox', { name: 'Sender' }).click();
    await page.getByRole('option', { name: `Sam's News <news${run}@${DOMAIN}>` }).click();
    await form.getByRole('textbox', { name: 'Preheader' }).fill('Everything 20% off');
    await form
      .getByRole('textbox', { name: 'HTML body' })
      .fill('<h1>Spring is here</h1><p>Everything is <b>20% off</b> this week.</p><script>alert(1)</script>');
    await page.frameLocator('iframe[title="Campaign preview"]').getByText('Spring is here').waitFor();
    await screenshot(page, 'email-campaign-new');
    await form.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('The campaign has been created.').waitFor();
    await page.waitForURL('**/email-marketing/campaigns/edit/*');
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    // Sanitized, with the unsubscribe footer the body lacked.
    const saved = await api<{ body_html: string }>('GET', `/seller/email-marketing/campaigns/${id}`, token);
    expect(saved.body.data.body_html).not.toContain('<script');
    expect(saved.body.data.body_html).toContain('{{unsubscribe_url}}');

    await page.getByLabel('Test address').fill(`me.${run}@example.com`);
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText(`A test e-mail is on its way to me.${run}@example.com.`).waitFor();
    await expect
      .poll(async () => (await outbox(adminToken, `me.${run}@example.com`)).data.map((m) => m.subject), { timeout: 30_000 })
      .toEqual([`[Test] ${subject}`]);

    await page.getByRole('link', { name: 'Review and send' }).click();
    await page.waitForURL(`**/email-marketing/campaigns/view/${id}`);
    await page.getByTestId('campaign-status').filter({ hasText: 'draft' }).waitFor();
    await page.getByRole('button', { name: 'Send to subscribers' }).click();
    await page.getByRole('dialog', { name: 'Send this campaign?' }).getByRole('button', { name: 'Yes, send it!' }).click();
    await page.getByText('The campaign is being sent to its subscribers.').waitFor();
    await page.getByTestId('campaign-status').filter({ hasText: 'sent' }).waitFor({ timeout: 90_000 });
    await screenshot(page, 'email-campaign-sent');
    const recipients = Number(await page.getByTestId('stat-recipients').textContent());
    expect(recipients).toBeGreaterThanOrEqual(SUBSCRIBERS);
    expect(Number(await page.getByTestId('stat-sent').textContent())).toBe(recipients);
    expect(await page.getByTestId('stat-failed').textContent()).toBe('0');

    // Every subscriber this test imported got exactly one copy, with a working unsubscribe link (the store
    // may hold other tests' subscribers too: they got theirs).
    const mails = (await outbox(adminToken, `.${run}@example.com`)).data.filter((m) => m.subject === subject);
    expect(mails.map((m) => m.to).sort()).toEqual(Array.from({ length: SUBSCRIBERS }, (_, i) => `reader${i}.${run}@example.com`).sort());
    const link = mails[0]!.body.match(/https?:\/\/\S+\/api\/public\/email-marketing\/unsubscribe\/[0-9a-f-]+/)?.[0];
    expect(link).toBeDefined();
    const unsub = await api('GET', new URL(link!).pathname.replace(/^\/api/, ''));
    expect(unsub.status).toBe(200);

    await page.goto('/email-marketing/campaigns');
    const row = page.getByTestId('email-campaign').filter({ hasText: `Spring ${run}` });
    await row.getByText('Sent', { exact: true }).waitFor();
    await screenshot(page, 'email-campaigns-list');
    await context.close();
  });

  it('saves the abandoned checkout emails and picks the coupon from the search', async () => {
    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/email-marketing/settings');
    await page.getByRole('switch', { name: 'Send email 1' }).check();
    await page.getByRole('textbox', { name: 'Subject' }).fill('');
    await page.getByRole('button', { name: 'Save emails' }).click();
    await page.getByText('An enabled email needs a subject of at most 200 characters.').first().waitFor();
    await page.getByRole('textbox', { name: 'Subject' }).fill('You left something behind');
    await page.getByRole('textbox', { name: 'HTML body' }).fill('<p>Your cart misses you.</p>');
    await page.getByRole('button', { name: 'Save emails' }).click();
    await page.getByText('The abandoned checkout emails have been saved.').waitFor();

    await page.getByRole('combobox', { name: 'Discount code' }).fill('save');
    await page.getByRole('option', { name: 'SAVE20' }).click();
    await page.getByRole('button', { name: 'Save coupon' }).click();
    await page.getByText('The abandoned checkout discount has been saved.').waitFor();
    await page.getByTestId('coupon-current').filter({ hasText: 'The emails offer SAVE20.' }).waitFor();
    await screenshot(page, 'email-marketing-abandoned');
    await context.close();
  });
});
