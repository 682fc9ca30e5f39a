import { isMantineColorScheme, localStorageColorSchemeManager, type MantineColorSchemeManager } from '@mantine/core';
import { readCookie, removeCookie, writeCookie } from '../cookies';

/** Storage key and cookie name of the chosen color scheme (dark mode persists in storage and a cookie). */
export const COLOR_SCHEME_KEY = 'color-scheme';
const ONE_YEAR_SECONDS = 31_536_000;

/** Mantine's localStorage manager that also mirrors the choice into the `color-scheme` cookie. */
export function colorSchemeManager(): MantineColorSchemeManager {
  const storage = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });
  return {
    ...storage,
    get: (defaultValue) => {
      const stored = storage.get(defaultValue);
      if (stored !== defaultValue) return stored;
      const cookie = readCookie(COLOR_SCHEME_KEY);
      return isMantineColorScheme(cookie) ? cookie : defaultValue;
    },
    set: (value) => {
      storage.set(value);
      writeCookie(COLOR_SCHEME_KEY, value, { maxAgeSeconds: ONE_YEAR_SECONDS });
    },
    clear: () => {
      storage.clear();
      removeCookie(COLOR_SCHEME_KEY);
    },
  };
}
