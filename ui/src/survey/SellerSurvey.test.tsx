import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../api';
import { readCookie } from '../cookies';
import { meQuery } from '../session/queries';
import { renderWithMantine } from '../test/render';
import { makeUser } from '../test/users';
import { DISABLE_SURVEY_COOKIE, MSG_BAD_FACEBOOK, SURVEY_DELAY_MS, SURVEY_RECHECK_MS } from './rules';

/** Serves `accounts` as the authorized-accounts list (none by default) and records every request path. */
function serve(accounts: unknown[] = []): string[] {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof globalThis.fetch>((input) => {
      paths.push(new URL(input as string, 'http://localhost').pathname);
      return Promise.resolve(
        new Response(JSON.stringify({ success: true, message: '', data: accounts, errors: [] }), { headers: { 'Content-Type': 'application/json' } }),
      );
    }),
  );
  return paths;
}

async function setup(user: User, accounts: unknown[] = []) {
  // A fresh module graph: a survey closed in one test stays closed for the page view (survey/surveyState),
  // which would otherwise keep it away in every later test whatever the rules say.
  vi.resetModules();
  const { SellerSurvey } = await import('./SellerSurvey');
  const paths = serve(accounts);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(meQuery.queryKey, user);
  renderWithMantine(
    <QueryClientProvider client={client}>
      <SellerSurvey />
    </QueryClientProvider>,
  );
  return paths;
}

/** Lets the accounts query settle, then moves the survey's timer on by `ms`. */
async function wait(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('seller survey', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    document.cookie = `${DISABLE_SURVEY_COOKIE}=; path=/; max-age=0`;
  });

  it('opens about 2 s after the screen for a new seller', async () => {
    const paths = await setup(makeUser());
    await wait(SURVEY_DELAY_MS - 1);
    expect(screen.queryByRole('dialog', { name: 'Seller Survey' })).toBeNull();
    await wait(1);
    expect(screen.getByRole('dialog', { name: 'Seller Survey' })).toBeInTheDocument();
    expect(paths).toEqual(['/api/seller/authorized-accounts']);
  });

  it('waits for a dialog the seller has open (New campaign) to close instead of covering it', async () => {
    const other = document.createElement('div');
    other.setAttribute('role', 'dialog');
    other.setAttribute('aria-modal', 'true');
    document.body.append(other);
    try {
      await setup(makeUser());
      await wait(SURVEY_DELAY_MS + 3 * SURVEY_RECHECK_MS);
      expect(screen.queryByRole('dialog', { name: 'Seller Survey' })).toBeNull();
      other.remove();
      await wait(SURVEY_RECHECK_MS);
      expect(screen.getByRole('dialog', { name: 'Seller Survey' })).toBeInTheDocument();
    } finally {
      other.remove();
    }
  });

  it('asks for Facebook and phone only when the account lacks them', async () => {
    await setup(makeUser({ phone: '+1 555 010 2222' }));
    await wait(SURVEY_DELAY_MS);
    expect(screen.getByLabelText('Facebook')).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Phone/)).toBeNull();
  });

  it('checks the Facebook URL before calling the bff', async () => {
    const paths = await setup(makeUser());
    await wait(SURVEY_DELAY_MS);
    vi.useRealTimers();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Facebook'), 'https://example.com/me');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(MSG_BAD_FACEBOOK)).toBeInTheDocument();
    expect(paths).toEqual(['/api/seller/authorized-accounts']);
  });

  it('sets disable_seller_survey when closed', async () => {
    await setup(makeUser());
    await wait(SURVEY_DELAY_MS);
    vi.useRealTimers();
    const user = userEvent.setup();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Seller Survey' })).toBeNull();
    expect(readCookie(DISABLE_SURVEY_COOKIE)).toBe('1');
  });

  it('stays away from a seller with authorized accounts to switch into', async () => {
    const paths = await setup(makeUser(), [{ seller_id: 7, name: 'Other Shop', avatar: null, role: 'staff' }]);
    await wait(SURVEY_DELAY_MS * 2);
    expect(screen.queryByRole('dialog', { name: 'Seller Survey' })).toBeNull();
    expect(paths).toEqual(['/api/seller/authorized-accounts']);
  });

  it.each([
    ['a designer', makeUser({ roles: ['designer'] })],
    ['a seller who answered', makeUser({ sale_volume: '2000+' })],
    ['a switched session', makeUser({ access_user: true })],
  ])('stays away from %s without asking for accounts', async (_, user) => {
    const paths = await setup(user);
    await wait(SURVEY_DELAY_MS * 2);
    expect(screen.queryByRole('dialog', { name: 'Seller Survey' })).toBeNull();
    expect(paths).toEqual([]);
  });
});
