import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../api';
import type { ClientInfo } from '../api/tracking';
import { readCookie } from '../cookies';
import { CLICKED_COOKIE, campaignList, rememberTrackingQuery, sendOwedTracking, storedQuery, SUBMITTED_COOKIE, TRACK_COOKIE } from './campaign';
import { browserOf, deviceOf, osOf } from './clientInfo';

const client: ClientInfo = {
  browser: 'Chrome',
  device: 'desktop',
  os: 'Linux',
  user_agent: 'ua',
  visitor_id: 'v-1',
  tab_session_id: 't-1',
};

interface Call {
  path: string;
  body: { utm_campaign: string; query: Record<string, string>; client_info: ClientInfo };
}

/** An API client whose submit answers come from `submitOk` in turn; records every call. */
function apiAnswering(submitOk: boolean[]): { api: ApiClient; calls: Call[] } {
  const calls: Call[] = [];
  const fetch = vi.fn<typeof globalThis.fetch>((input, init) => {
    const path = new URL(input as string, 'http://localhost').pathname;
    calls.push({ path, body: JSON.parse(init?.body as string) as Call['body'] });
    const ok = path === '/api/utm-campaign/track' || (submitOk.shift() ?? false);
    const body = ok
      ? { success: true, message: '', data: { success: true, recorded: true }, errors: [] }
      : { success: false, message: 'Something went wrong on our side. Please try again.', data: null, errors: [] };
    return Promise.resolve(new Response(JSON.stringify(body), { status: ok ? 200 : 500, headers: { 'Content-Type': 'application/json' } }));
  });
  return { api: new ApiClient({ baseUrl: '/api', tokens: { get: () => 'token', set: () => undefined, clear: () => undefined }, fetch }), calls };
}

function clearCookies() {
  for (const name of [TRACK_COOKIE, CLICKED_COOKIE, SUBMITTED_COOKIE]) document.cookie = `${name}=; path=/; max-age=0`;
}

describe('utm_campaign tracking', () => {
  beforeEach(clearCookies);
  afterEach(clearCookies);

  it('keeps the utm_* query of a visit with utm_campaign in cs_track', () => {
    rememberTrackingQuery(new URL('http://localhost/?utm_campaign=spring&utm_source=mail&page=2'));
    expect(storedQuery()).toEqual({ utm_campaign: 'spring', utm_source: 'mail' });
    rememberTrackingQuery(new URL('http://localhost/orders?utm_source=other'));
    expect(storedQuery()).toEqual({ utm_campaign: 'spring', utm_source: 'mail' });
  });

  it('sends the click once per campaign and resends the submit until it succeeds', async () => {
    rememberTrackingQuery(new URL('http://localhost/?utm_campaign=spring&utm_source=mail'));
    const { api, calls } = apiAnswering([false, true]);

    await expect(sendOwedTracking(api, () => client)).rejects.toThrow();
    expect(calls.map((c) => c.path)).toEqual(['/api/utm-campaign/track', '/api/seller/utm-campaign/track']);
    expect(calls[0]!.body).toEqual({ utm_campaign: 'spring', query: { utm_campaign: 'spring', utm_source: 'mail' }, client_info: client });
    expect(campaignList(CLICKED_COOKIE)).toEqual(['spring']);
    expect(readCookie(TRACK_COOKIE)).toBeDefined();

    await sendOwedTracking(api, () => client);
    expect(calls.map((c) => c.path).slice(2)).toEqual(['/api/seller/utm-campaign/track']);
    expect(campaignList(SUBMITTED_COOKIE)).toEqual(['spring']);
    expect(readCookie(TRACK_COOKIE)).toBeUndefined();

    await sendOwedTracking(api, () => client);
    expect(calls).toHaveLength(3);
  });

  it('asks for the client info only when cs_track owes something', async () => {
    const { api, calls } = apiAnswering([]);
    const askClient = vi.fn<() => ClientInfo>();
    await sendOwedTracking(api, askClient);
    expect(askClient).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });
});

describe('client info', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36', 'Chrome', 'Linux', 'desktop'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0', 'Edge', 'Windows', 'desktop'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1', 'Safari', 'iOS', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Tab) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36', 'Chrome', 'Android', 'tablet'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.0; rv:131.0) Gecko/20100101 Firefox/131.0', 'Firefox', 'macOS', 'desktop'],
  ])('reads %s', (ua, browser, os, device) => {
    expect([browserOf(ua), osOf(ua), deviceOf(ua)]).toEqual([browser, os, device]);
  });
});
