import { beforeEach, describe, expect, it } from 'vitest';
import { visibleMenu } from '../access';
import { makeUser } from '../test/users';
import { makeNotification } from '../test/notifications';
import {
  closeReports,
  dismissKey,
  hidePopupForADay,
  markPopupShown,
  mayFetchPopup,
  POPUP_COOLDOWN_MS,
  POPUP_DISMISSED_KEY,
  POPUP_HIDE_MS,
  readDismissed,
  rememberDismissed,
  withoutDismissed,
} from './popupRules';

/** jsdom's localStorage, emptied before every test, holding `entries`. */
function browserStorage(entries: Record<string, string> = {}): Storage {
  for (const [key, value] of Object.entries(entries)) window.localStorage.setItem(key, value);
  return window.localStorage;
}

beforeEach(() => window.localStorage.clear());

const note = makeNotification;

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('popup cooldown (at most once per 60 minutes)', () => {
  it.each([
    ['never shown', undefined, true],
    ['shown a minute ago', NOW - 60_000, false],
    ['shown 59 minutes 59 seconds ago', NOW - POPUP_COOLDOWN_MS + 1000, false],
    ['shown exactly 60 minutes ago', NOW - POPUP_COOLDOWN_MS, true],
    ['shown yesterday', NOW - POPUP_HIDE_MS, true],
    ['a flag from the future (clock changed)', NOW + 60_000, true],
  ])('%s → fetch %s', (_name, shownAt, want) => {
    const storage = browserStorage();
    if (shownAt !== undefined) markPopupShown(storage, shownAt);
    expect(mayFetchPopup(storage, true, NOW)).toBe(want);
  });

  it('treats an unreadable flag as never shown', () => {
    expect(mayFetchPopup(browserStorage({ 'notify-modal-shown-at': 'soon' }), true, NOW)).toBe(true);
  });
});

describe('one-day hide flag', () => {
  it.each([
    ['set an hour ago', NOW - 60 * 60_000, false],
    ['set 23 hours ago', NOW - 23 * 60 * 60_000, false],
    ['set a day ago', NOW - POPUP_HIDE_MS, true],
  ])('%s → fetch %s', (_name, hiddenAt, want) => {
    const storage = browserStorage();
    hidePopupForADay(storage, hiddenAt);
    expect(mayFetchPopup(storage, true, NOW)).toBe(want);
  });
});

describe('tag hide-notify-modal', () => {
  it('takes the popup out of what the user may see, so it is never fetched', () => {
    const seller = makeUser({ tags: ['notify'] });
    const hidden = makeUser({ tags: ['notify', 'hide-notify-modal'] });
    const context = { host: 'pressroom.test', bulk_v3: false };
    expect(visibleMenu(seller, context)).toContain('notifications_popup');
    expect(visibleMenu(hidden, context)).not.toContain('notifications_popup');
    expect(mayFetchPopup(browserStorage(), visibleMenu(hidden, context).includes('notifications_popup'), NOW)).toBe(false);
  });

  it('is never fetched without storage to keep the flags in', () => {
    expect(mayFetchPopup(null, true, NOW)).toBe(false);
  });
});

describe('dismissed notifications', () => {
  it('are kept as id|seller_id, or id|ALL for those meant for every seller', () => {
    expect(dismissKey(note(3))).toBe('3|7');
    expect(dismissKey(note(4, { seller_id: null }))).toBe('4|ALL');
  });

  it('are remembered across calls and filtered out', () => {
    const storage = browserStorage();
    rememberDismissed(storage, [note(3)]);
    rememberDismissed(storage, [note(4, { seller_id: null }), note(3)]);
    expect(JSON.parse(storage.getItem(POPUP_DISMISSED_KEY)!)).toEqual(['3|7', '4|ALL']);
    const list = [note(5), note(4, { seller_id: null }), note(3), note(3, { seller_id: 8 })];
    expect(withoutDismissed(list, readDismissed(storage)).map(dismissKey)).toEqual(['5|7', '3|8']);
  });

  it('survive a corrupt entry by starting over', () => {
    expect(readDismissed(browserStorage({ [POPUP_DISMISSED_KEY]: '{not json' })).size).toBe(0);
    expect([...readDismissed(browserStorage({ [POPUP_DISMISSED_KEY]: '["1|ALL", 2]' }))]).toEqual(['1|ALL']);
  });
});

describe('closeReports', () => {
  it('sends the ticked ids with action 1 and every shown type-2 notification with action 2', () => {
    const shown = [note(9, { type: 2 }), note(8), note(7, { type: 2 })];
    expect(closeReports(shown, new Set([8, 7]))).toEqual({ dismissed: [8, 7], seen: [9, 7] });
    expect(closeReports(shown.slice(0, 2), new Set())).toEqual({ dismissed: [], seen: [9] });
  });
});
