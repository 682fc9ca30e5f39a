import type { ApiClient } from '../api';
import { trackClick, trackSubmit, type ClientInfo } from '../api/tracking';
import { COOKIE_MAX_AGE_S, readCookie, removeCookie, writeCookie } from '../cookies';

/** The tracking query, and the campaigns whose click and submit were sent. */
export const TRACK_COOKIE = 'cs_track';
export const CLICKED_COOKIE = 'clickedCampaigns';
export const SUBMITTED_COOKIE = 'submittedCampaigns';

/** The query parameters kept with the campaign: utm_campaign and its utm_* companions. */
const TRACKED_PREFIX = 'utm_';

/** The utm_* parameters of `url` when it carries a utm_campaign, else undefined. */
export function trackingQuery(url: URL): Record<string, string> | undefined {
  if (!url.searchParams.get('utm_campaign')?.trim()) return undefined;
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key.startsWith(TRACKED_PREFIX)) query[key] = value;
  }
  return query;
}

/** Stores the tracking query of `url` in cs_track when it has a utm_campaign. */
export function rememberTrackingQuery(url: URL, doc: Document = document): void {
  const query = trackingQuery(url);
  if (query) writeCookie(TRACK_COOKIE, JSON.stringify(query), { maxAgeSeconds: COOKIE_MAX_AGE_S }, doc);
}

function readJson(name: string, doc: Document): unknown {
  const raw = readCookie(name, doc);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** The tracking query cs_track holds, or undefined when it holds none with a utm_campaign. */
export function storedQuery(doc: Document = document): Record<string, string> | undefined {
  const value = readJson(TRACK_COOKIE, doc);
  if (typeof value !== 'object' || value === null) return undefined;
  const query = Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return query.utm_campaign?.trim() ? query : undefined;
}

/** The campaigns listed in cookie `name`. */
export function campaignList(name: string, doc: Document = document): string[] {
  const value = readJson(name, doc);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function addCampaign(name: string, campaign: string, doc: Document): void {
  const list = campaignList(name, doc);
  if (!list.includes(campaign)) writeCookie(name, JSON.stringify([...list, campaign]), { maxAgeSeconds: COOKIE_MAX_AGE_S }, doc);
}

/**
 * Sends what cs_track still owes for the signed-in seller: the click once per campaign
 * (clickedCampaigns), then the submit. A submit that fails stays owed and is sent again on the next
 * call; once the bff answers data.success the campaign joins submittedCampaigns and cs_track goes.
 * `client` is asked only when something is owed, so a visit without cs_track reads nothing more.
 */
export async function sendOwedTracking(api: ApiClient, client: () => ClientInfo, doc: Document = document): Promise<void> {
  const query = storedQuery(doc);
  if (!query) return;
  const campaign = query.utm_campaign!.trim();
  const payload = { utm_campaign: campaign, query, client_info: client() };
  if (!campaignList(CLICKED_COOKIE, doc).includes(campaign)) {
    await trackClick(api, payload);
    addCampaign(CLICKED_COOKIE, campaign, doc);
  }
  if (!campaignList(SUBMITTED_COOKIE, doc).includes(campaign)) {
    const result = await trackSubmit(api, payload);
    if (!result.success) return;
    addCampaign(SUBMITTED_COOKIE, campaign, doc);
  }
  removeCookie(TRACK_COOKIE, doc);
}
