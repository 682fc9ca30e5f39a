import { describe, expect, it } from 'vitest';
import type { CustomDomain } from '../src/api/domains';
import { api, apiLogin } from './support/accounts';
import { STORE_URL } from './support/shop';
import { DEMO_SELLER, launchBrowser, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/** testdns's record API (scripts/test), the DNS server the bff checks domains through. */
const DNS_URL = process.env.PRESSROOM_E2E_DNS_URL;
const DOMAIN = 'shop.example.test';

/** Sets (or, without a value, removes) the TXT record at name on the test DNS server. */
async function setTXT(name: string, value?: string): Promise<void> {
  const res = await fetch(`${DNS_URL}/txt/${name}`, value === undefined ? { method: 'DELETE' } : { method: 'PUT', body: value });
  expect(res.status).toBe(204);
}

describe.skipIf(!DNS_URL)('custom domains (docs/domains.md)', () => {
  const browser = suiteBrowser();

  it('the seller adds a domain, creates its TXT record, sees it verified, and the store answers on it', async () => {
    // A domain of an earlier run on the same stack is removed first: a domain is on one store only.
    const seller = await apiLogin(DEMO_SELLER);
    const before = await api<CustomDomain[]>('GET', '/domains', seller);
    for (const d of before.body.data.filter((d) => d.domain === DOMAIN)) await api('DELETE', `/domains/${d.id}`, seller);
    await setTXT(`_pressroom-verify.${DOMAIN}`);

    const { context, page } = await openPage(browser());
    await signIn(page, DEMO_SELLER);
    await page.goto('/domains');
    await page.getByRole('heading', { name: 'Domains' }).waitFor();
    const form = page.getByRole('form', { name: 'Add a domain' });
    await form.getByLabel('Store').click();
    await page.getByRole('option', { name: "Sam's Print Shop" }).click();
    await form.getByLabel('Domain').fill('https://shop.example.test/');
    await form.getByRole('button', { name: 'Add domain' }).click();
    await form.getByText('Enter the domain name only, such as shop.example.com: no http://, path or port.').waitFor();
    await screenshot(page, 'domains-refused');
    await form.getByLabel('Domain').fill('Shop.Example.test');
    await form.getByRole('button', { name: 'Add domain' }).click();

    const card = page.getByTestId('domain').filter({ hasText: DOMAIN });
    await card.getByText('Waiting for DNS').waitFor();
    const recordName = `_pressroom-verify.${DOMAIN}`;
    await card.getByText(recordName).waitFor();
    const value = (await card.locator('code').nth(1).innerText()).trim();
    expect(value).toMatch(/^[0-9a-f]{32}$/);
    await screenshot(page, 'domains-added');

    // Checked before the record exists: refused, with what to do.
    await card.getByRole('button', { name: 'Check now' }).click();
    await card.getByText('Not verified').waitFor();
    await card.getByText(`No TXT record was found at ${recordName}. Create it with the value shown, then check again.`).first().waitFor();
    await screenshot(page, 'domains-failed');

    await setTXT(recordName, value);
    await card.getByRole('button', { name: 'Check now' }).click();
    await card.getByText('Verified', { exact: true }).waitFor();
    expect(await card.getByRole('link', { name: 'Open store' }).getAttribute('href')).toBe(`https://${DOMAIN}/`);
    await screenshot(page, 'domains-verified');
    await context.close();

    // A browser that sends the domain to this machine opens the store on it.
    const port = new URL(STORE_URL).port || '80';
    const mapped = await launchBrowser([`--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`]);
    try {
      const shop = await openPage(mapped, undefined, `http://${DOMAIN}:${port}`);
      await shop.page.goto('/');
      await shop.page.getByRole('heading', { name: "Sam's Print Shop" }).waitFor();
      expect(await shop.page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`http://${DOMAIN}:${port}/`);
      await screenshot(shop.page, 'domains-store-on-domain');
    } finally {
      await mapped.close();
    }

    // The TLS proxy's question is answered yes for it, no for a domain nobody verified.
    expect((await fetch(`${STORE_URL}/tls/ask?domain=${DOMAIN}`)).status).toBe(200);
    expect((await fetch(`${STORE_URL}/tls/ask?domain=other.example.test`)).status).toBe(404);

    // Removed, the store no longer answers on it.
    const after = await api<CustomDomain[]>('GET', '/domains', seller);
    const mine = after.body.data.find((d) => d.domain === DOMAIN);
    expect(mine?.status).toBe('verified');
    expect((await api('DELETE', `/domains/${mine?.id}`, seller)).status).toBe(200);
    expect((await fetch(`${STORE_URL}/tls/ask?domain=${DOMAIN}`)).status).toBe(404);
    await setTXT(recordName);
  });
});
