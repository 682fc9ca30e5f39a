import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showPages } from '../../test/pages';
import { makeUser } from '../../test/users';
import { GeneralSettingsPage } from './GeneralSettingsPage';

const json = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

describe('GeneralSettingsPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the zone and currency, saves them and shows a refused zone against its field', async () => {
    let refuse = true;
    const calls = showPages('/settings/general', { '/settings/general': <GeneralSettingsPage /> }, (url) => {
      if (url.pathname === '/api/settings/general') {
        if (refuse) {
          return json(422, {
            success: false,
            message: 'The timezone must be a time zone from the list.',
            errors: [{ field: 'timezone', message: 'The timezone must be a time zone from the list.' }],
          });
        }
        return json(200, { success: true, message: 'Your general settings have been saved.', data: null, errors: [] });
      }
      // The session user read again after the save.
      return json(200, { success: true, message: '', data: makeUser({ timezone: 'America/New_York', currency: 'EUR' }), errors: [] });
    });
    expect(screen.queryByText(/not available/)).not.toBeInTheDocument();
    const zone = screen.getByLabelText('Timezone', { selector: 'input' });
    expect(zone).toHaveValue('Etc/GMT-2 (UTC+02:00)');
    expect(screen.getByLabelText('Currency', { selector: 'input' })).toHaveValue('US dollar (USD)');
    const user = userEvent.setup();
    await user.click(zone);
    await user.clear(zone);
    await user.type(zone, 'New York');
    await user.click(await screen.findByRole('option', { name: /^America\/New York \(UTC-0[45]:00\)$/ }));
    await user.click(screen.getByLabelText('Currency', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Euro (EUR)' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('The timezone must be a time zone from the list.')).not.toHaveLength(0);
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByText('The timezone must be a time zone from the list.')).not.toBeInTheDocument());
    // Saved: nothing is left to save.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    const puts = calls.filter((c) => c.url.pathname === '/api/settings/general');
    expect(puts).toHaveLength(2);
    expect(puts[1]?.init?.method).toBe('PUT');
    expect(JSON.parse(puts[1]?.init?.body as string)).toEqual({ timezone: 'America/New_York', currency: 'EUR' });
    await waitFor(() => expect(calls.some((c) => c.url.pathname === '/api/me')).toBe(true));
  });

  it('current_tab=2fa selects the two-factor tab, current_tab=api-key the API keys panel', async () => {
    showPages('/settings/general?current_tab=2fa', { '/settings/general': <GeneralSettingsPage /> }, (url) =>
      url.pathname === '/api/settings/api-keys'
        ? json(200, { success: true, message: '', data: { keys: [], scopes: ['store', 'orders'] }, errors: [] })
        : json(200, { success: true, message: '', data: null, errors: [] }),
    );
    expect(screen.getByRole('tab', { name: 'Two-factor authentication' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: 'Set up two-factor authentication' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'API key' }));
    const panel = screen.getByRole('tabpanel');
    expect(await within(panel).findByText('No API keys yet.')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Create API key' })).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/settings/api-keys/reference');
    expect(within(panel).queryByText(/coming soon|not issue API keys/i)).not.toBeInTheDocument();
  });
});
