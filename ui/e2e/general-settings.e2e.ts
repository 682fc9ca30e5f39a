import { describe, expect, it } from 'vitest';
import { api, apiLogin } from './support/accounts';
import { DEMO_SELLER, openPage, screenshot, signIn, suiteBrowser } from './support/stack';

/** The minutes of a date shown as "Nov 26, 2026, 02:05 PM". */
const minutesOf = (text: string) => Number(/:(\d{2})\s*[AP]M/.exec(text)?.[1]);

describe('general settings (docs/accounts.md)', () => {
  const browser = suiteBrowser();

  it('a new time zone moves every date on screen; current_tab=2fa opens the two-factor tab', async () => {
    const token = await apiLogin(DEMO_SELLER);
    expect((await api('PUT', '/settings/general', token, { timezone: 'UTC', currency: 'USD' })).status).toBe(200);
    try {
      const { context, page } = await openPage(browser());
      await signIn(page, DEMO_SELLER);
      await page.goto('/settings/general');
      await page.getByRole('heading', { name: 'General settings' }).waitFor();
      expect(await page.getByText(/not available/).count()).toBe(0);
      // The date the page shows (now, in the seller's zone).
      const preview = page.getByTestId('timezone-preview');
      const inUTC = (await preview.innerText()).trim();
      const zone = page.locator('input').and(page.getByLabel('Timezone', { exact: true }));
      await zone.click();
      await zone.fill('Asia/');
      await page.getByRole('option', { name: /^Asia\/(Kolkata|Calcutta) / }).first().click();
      await page.locator('input').and(page.getByLabel('Currency', { exact: true })).click();
      await page.getByRole('option', { name: 'Euro (EUR)' }).click();
      const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/settings/general' && r.request().method() === 'PUT');
      await page.getByRole('button', { name: 'Save' }).click();
      expect((await saved).status()).toBe(200);
      await page.getByText('Your general settings have been saved.').waitFor();
      await screenshot(page, 'general-settings-saved');

      const me = await api<{ timezone: string; utc_offset: number; currency: string }>('GET', '/me', token);
      expect(me.body.data.timezone).toMatch(/^Asia\/(Kolkata|Calcutta)$/);
      expect(me.body.data.utc_offset).toBe(5.5);
      expect(me.body.data.currency).toBe('EUR');

      // Read again from the saved user: the date shown is five and a half hours later on the clock (a
      // minute may have passed meanwhile).
      await page.reload();
      await preview.waitFor();
      const inKolkata = (await preview.innerText()).trim();
      expect(inKolkata).not.toBe(inUTC);
      expect([(minutesOf(inUTC) + 30) % 60, (minutesOf(inUTC) + 31) % 60]).toContain(minutesOf(inKolkata));
      await screenshot(page, 'general-settings-reloaded-in-kolkata');

      await page.goto('/settings/general?current_tab=2fa');
      expect(await page.getByRole('tab', { name: 'Two-factor authentication' }).getAttribute('aria-selected')).toBe('true');
      await page.getByRole('tab', { name: 'API key' }).click();
      await page.getByRole('button', { name: 'Create API key' }).waitFor();
      await screenshot(page, 'general-settings-api-key');
      await context.close();
    } finally {
      await api('PUT', '/settings/general', token, { timezone: 'UTC', currency: 'USD' });
    }
  });
});
