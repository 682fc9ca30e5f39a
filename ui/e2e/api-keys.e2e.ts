import { describe, expect, it } from 'vitest';
import { BASE_URL, DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/** Calls the public API with an API key, from node as a seller's own software would. */
async function callV1(path: string, key: string): Promise<{ status: number; body: { total?: number; message?: string } }> {
  const response = await fetch(`${BASE_URL}/api/v1${path}`, { headers: { Accept: 'application/json', Authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as { total?: number; message?: string } };
}

describe('API keys (docs/api.md)', () => {
  const browser = suiteBrowser();

  it('a seller makes a key, software reads stores and campaigns with it, and after revocation it is refused', async () => {
    const { context, page } = await openPage(browser());
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
    await signIn(page, DEMO_SELLER);
    await page.goto('/settings/api-keys');
    await page.getByRole('heading', { name: 'API Keys', exact: true }).waitFor();
    const name = `Shop backend ${Date.now()}`;
    const form = page.getByRole('form', { name: 'New API key' });
    await form.getByLabel('Name').fill(name);
    await screenshot(page, 'api-keys-new');
    await form.getByRole('button', { name: 'Create API key' }).click();

    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    const key = (await dialog.getByTestId('api-key-secret').innerText()).trim();
    expect(key).toMatch(/^prk_live_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Copy secret' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await screenshot(page, 'api-keys-secret-once');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const row = page.getByTestId('api-key').filter({ hasText: name });
    await row.getByText('Not used yet').waitFor();
    expect(await row.innerText()).toContain(key.slice(0, 17));
    expect(await page.getByText(key).count()).toBe(0);

    const stores = await callV1('/stores', key);
    expect(stores.status).toBe(200);
    expect(stores.body.total).toBeGreaterThan(0);
    const campaigns = await callV1('/campaigns?per_page=5', key);
    expect(campaigns.status).toBe(200);
    expect(campaigns.body.total).toBeGreaterThan(0);

    // Uses are recorded in batches, about a second after the calls (docs/api.md, Auditing).
    await expect
      .poll(
        async () => {
          await page.reload();
          await row.getByText('Active').waitFor();
          return row.getByText('Not used yet').count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(0);
    await screenshot(page, 'api-keys-used');

    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await confirm.getByText(/stop working at once/).waitFor();
    await screenshot(page, 'api-keys-revoke-confirm');
    await confirm.getByRole('button', { name: 'Yes, revoke it' }).click();
    await row.getByText('Revoked').waitFor();
    await screenshot(page, 'api-keys-revoked');

    const refused = await callV1('/stores', key);
    expect(refused.status).toBe(401);

    await page.getByRole('link', { name: 'API reference' }).click();
    await page.getByRole('heading', { name: 'API reference' }).waitFor();
    await page.getByText('/api/v1/orders/{id}/shipments').waitFor();
    await screenshot(page, 'api-keys-reference');
    await context.close();
  });
});
