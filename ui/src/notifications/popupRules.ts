import type { Notification } from '../api/notifications';
import { NOTIFICATION_TYPE_ONCE } from '../api/notifications';

/**
 * The rules of the new-notifications popup: shown at most once per 60 minutes (a flag
 * is set after showing), not fetched while the one-day hide flag is set or for users with the tag
 * hide-notify-modal (the menu's `notifications_popup` gate), notifications dismissed in this browser
 * (kept as `id|seller_id`, `ALL` for those meant for every seller) filtered out, and on close the
 * ticked ids reported with action 1 and the shown type-2 ones with action 2.
 */
export const POPUP_COOLDOWN_MS = 60 * 60 * 1000;
/** How long "Hide for a day" keeps the popup away. */
export const POPUP_HIDE_MS = 24 * 60 * 60 * 1000;

/** When the popup was last shown (epoch ms). */
export const POPUP_SHOWN_AT_KEY = 'notify-modal-shown-at';
/** When the one-day hide flag was set (epoch ms). */
export const POPUP_HIDDEN_AT_KEY = 'notify-modal-hidden-at';
/** The JSON list of dismissed notifications, each `id|seller_id` or `id|ALL`. */
export const POPUP_DISMISSED_KEY = 'notify-modal-dismissed';

export type KeyValue = Pick<Storage, 'getItem' | 'setItem'>;

/** The browser's local storage, or null where it is refused (then the popup stays away). */
export function popupStorage(): KeyValue | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function readTime(storage: KeyValue, key: string): number | null {
  const raw = storage.getItem(key);
  const at = raw === null ? Number.NaN : Number(raw);
  return Number.isFinite(at) ? at : null;
}

/** Whether `at` lies within `span` before `now`; a time in the future (a changed clock) does not count. */
const within = (at: number | null, span: number, now: number) => at !== null && at <= now && now - at < span;

/**
 * Whether the popup may ask for notifications now: the user may see it (`allowed`, false for the
 * hide-notify-modal tag), no one-day hide flag is set and it was not shown in the last 60 minutes.
 */
export function mayFetchPopup(storage: KeyValue | null, allowed: boolean, now: number = Date.now()): boolean {
  if (!allowed || !storage) return false;
  try {
    return !within(readTime(storage, POPUP_HIDDEN_AT_KEY), POPUP_HIDE_MS, now) &&
      !within(readTime(storage, POPUP_SHOWN_AT_KEY), POPUP_COOLDOWN_MS, now);
  } catch {
    return false;
  }
}

/** Sets the flag "shown" that starts the 60-minute cooldown. */
export function markPopupShown(storage: KeyValue | null, now: number = Date.now()): void {
  try {
    storage?.setItem(POPUP_SHOWN_AT_KEY, String(now));
  } catch {
    // Without storage the popup is never fetched again in this page load anyway.
  }
}

/** Sets the one-day hide flag. */
export function hidePopupForADay(storage: KeyValue | null, now: number = Date.now()): void {
  try {
    storage?.setItem(POPUP_HIDDEN_AT_KEY, String(now));
  } catch {
    // As above.
  }
}

/** How a dismissed notification is remembered: `id|seller_id`, or `id|ALL` for every seller's. */
export const dismissKey = (n: Pick<Notification, 'id' | 'seller_id'>): string => `${n.id}|${n.seller_id ?? 'ALL'}`;

/** The dismissed keys this browser remembers. */
export function readDismissed(storage: KeyValue | null): Set<string> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(POPUP_DISMISSED_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Adds `dismissed` to the remembered keys. */
export function rememberDismissed(storage: KeyValue | null, dismissed: readonly Notification[]): void {
  if (dismissed.length === 0) return;
  const keys = readDismissed(storage);
  for (const n of dismissed) keys.add(dismissKey(n));
  try {
    storage?.setItem(POPUP_DISMISSED_KEY, JSON.stringify([...keys]));
  } catch {
    // The server keeps the dismissal too (read-status action 1).
  }
}

/** `list` without the notifications this browser remembers as dismissed. */
export function withoutDismissed(list: readonly Notification[], dismissed: ReadonlySet<string>): Notification[] {
  return list.filter((n) => !dismissed.has(dismissKey(n)));
}

/** The read-status calls of closing the popup: action 1 for the ticked ids, action 2 for the shown type-2 ones. */
export function closeReports(
  shown: readonly Notification[],
  ticked: ReadonlySet<number>,
): { dismissed: number[]; seen: number[] } {
  return {
    dismissed: shown.filter((n) => ticked.has(n.id)).map((n) => n.id),
    seen: shown.filter((n) => n.type === NOTIFICATION_TYPE_ONCE).map((n) => n.id),
  };
}
