import type { ClientInfo } from '../api/tracking';

/** Storage keys of the two ids: the visitor's lasts across visits, the tab's for the tab's life. */
export const VISITOR_ID_KEY = 'cs_visitor_id';
export const TAB_SESSION_ID_KEY = 'cs_tab_session_id';

/** The browser family named by a user-agent string, most specific first (Edge and Opera say Chrome too). */
export function browserOf(ua: string): string {
  if (/Edg\//.test(ua)) return 'Edge';
  if (/OPR\/|Opera/.test(ua)) return 'Opera';
  if (/Firefox\//.test(ua)) return 'Firefox';
  if (/Chrome\/|Chromium\/|CriOS\//.test(ua)) return 'Chrome';
  if (/Safari\//.test(ua)) return 'Safari';
  return 'Other';
}

/** The operating system named by a user-agent string. */
export function osOf(ua: string): string {
  if (/Windows/.test(ua)) return 'Windows';
  if (/iPhone|iPad|iPod/.test(ua)) return 'iOS';
  if (/Android/.test(ua)) return 'Android';
  if (/Mac OS X|Macintosh/.test(ua)) return 'macOS';
  if (/CrOS/.test(ua)) return 'ChromeOS';
  if (/Linux/.test(ua)) return 'Linux';
  return 'Other';
}

/** desktop, tablet or mobile, from a user-agent string. */
export function deviceOf(ua: string): string {
  if (/iPad|Tablet/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua))) return 'tablet';
  if (/Mobi|iPhone|iPod/.test(ua)) return 'mobile';
  return 'desktop';
}

/** The id kept under `key` in `storage`, made on first use. */
function storedId(storage: Storage, key: string): string {
  let id = storage.getItem(key);
  if (!id) {
    id = crypto.randomUUID();
    storage.setItem(key, id);
  }
  return id;
}

/** The client info for this browser tab; the bff adds the IP. */
export function clientInfo(ua: string = navigator.userAgent, local: Storage = localStorage, session: Storage = sessionStorage): ClientInfo {
  return {
    browser: browserOf(ua),
    device: deviceOf(ua),
    os: osOf(ua),
    user_agent: ua,
    visitor_id: storedId(local, VISITOR_ID_KEY),
    tab_session_id: storedId(session, TAB_SESSION_ID_KEY),
  };
}
