import { describe, expect, it } from 'vitest';
import { api, apiLogin, DEMO_ADMIN, outbox } from './support/accounts';
import { BASE_URL, DEMO_PASSWORD, DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

const DOMAIN = 'mail.sams-print-shop.pressroom.local';

describe('e-mail merge fields', () => {
  const browser = suiteBrowser();

  it('lists and previews the merge fields, refuses an unknown one, and fills each subscriber in on a public link', async () => {
    const run = Date.now().toString(36);
    const token = await apiLogin(DEMO_SELLER);
    const adminToken = await apiLogin(DEMO_ADMIN, DEMO_PASSWORD, 'admin');
    const storeId = (await api<{ id: number }[]>('GET', '/seller/email-marketing/stores', token)).body.data[0]!.id;
    const domains = await api<{ id: number; domain: string }[]>('GET', '/seller/email-marketing/domains', token);
    const domainId = domains.body.data.find((d) => d.domain === DOMAIN)!.id;
    expect((await api('POST', '/seller/email-marketing/senders', token, { store_domain_id: domainId, username: `merge${run}`, name: 'Merge News' })).status).toBe(200);
    const csv = `email,first_name,last_name\ngrace.${run}@example.com,Grace,Hopper\nnameless.${run}@example.com,,\n`;
    expect((await api('POST', '/seller/email-marketing/subscribers/import', token, { store_id: storeId, csv })).status).toBe(200);

    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/email-marketing/campaigns/new');
    const form = page.getByRole('form', { name: 'Campaign' });
    await form.getByTestId('merge-fields').getByText('{{first_name}}').waitFor();
    await form.getByRole('textbox', { name: 'Name' }).fill(`Merge ${run}`);
    await form.getByRole('textbox', { name: 'Subject' }).fill(`{{frist_name}}, news ${run}`);
    await form.getByRole('combobox', { name: 'Sender' }).click();
    await page.getByRole('option', { name: `Merge News <merge${run}@${DOMAIN}>` }).click();
    const unknown = 'The subject uses {{frist_name}}, which is not a merge field.';
    await page.getByTestId('preview-refused').getByText(unknown, { exact: false }).waitFor();
    await form.getByRole('button', { name: 'Save draft' }).click();
    // Refused on save too, on the subject itself: nothing was created.
    await form.getByRole('textbox', { name: 'Subject' }).and(page.locator('[aria-invalid="true"]')).waitFor();
    expect((await api<unknown[]>('GET', `/seller/email-marketing/campaigns?q=Merge%20${run}`, token)).body.data).toEqual([]);

    await form.getByRole('textbox', { name: 'Subject' }).fill(`{{first_name|Hello}}, news ${run}`);
    await form
      .getByRole('textbox', { name: 'HTML body' })
      .fill('<p>Dear {{first_name|reader}} {{last_name}},</p><p>New prints at {{store_name}}.</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>');
    await page.getByTestId('preview-subject').getByText(`Ada, news ${run}`, { exact: false }).waitFor();
    await page.frameLocator('iframe[title="Campaign preview"]').getByText('Dear Ada Lovelace,').waitFor();
    await screenshot(page, 'email-merge-preview');
    await form.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('The campaign has been created.').waitFor();
    await page.waitForURL('**/email-marketing/campaigns/edit/*');
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await context.close();

    expect((await api('POST', `/seller/email-marketing/campaigns/${id}/send`, token)).status).toBe(202);
    const mine = async () => (await outbox(adminToken, `.${run}@example.com`)).data.filter((m) => m.subject.endsWith(`news ${run}`));
    await expect.poll(async () => (await mine()).length, { timeout: 60_000 }).toBe(2);
    const mails = await mine();
    const grace = mails.find((m) => m.to === `grace.${run}@example.com`)!;
    const nameless = mails.find((m) => m.to === `nameless.${run}@example.com`)!;
    expect(grace.subject).toBe(`Grace, news ${run}`);
    expect(grace.body).toContain('Dear Grace Hopper,');
    expect(nameless.subject).toBe(`Hello, news ${run}`);
    expect(nameless.body).toContain('Dear reader ,');
    // The unsubscribe link is built on the address this stack is used at, not an address of the worker's own.
    const link = grace.body.match(/https?:\/\/\S+\/api\/public\/email-marketing\/unsubscribe\/[0-9a-f-]+/)?.[0];
    expect(link?.startsWith(`${BASE_URL}/api/public/email-marketing/unsubscribe/`)).toBe(true);
    const unsub = await fetch(link!);
    expect(unsub.status).toBe(200);
  });
});
