import type { HotkeyItem } from '@mantine/hooks';

/** The keys that clear local storage and reload the app. */
export const HARD_RELOAD_HOTKEYS = ['shift+F5', 'ctrl+shift+R'] as const;

/** Forgets everything the app kept in local storage, then reloads the page from the server. */
export function hardReload(storage: Pick<Storage, 'clear'> = window.localStorage, location: Pick<Location, 'reload'> = window.location): void {
  try {
    storage.clear();
  } catch {
    // Storage may be disabled (private mode, policies); the reload still helps.
  }
  location.reload();
}

/** useHotkeys entries for the hard reload; they fire in text fields too. */
export function hardReloadHotkeys(reload: () => void = hardReload): HotkeyItem[] {
  return HARD_RELOAD_HOTKEYS.map((hotkey) => [hotkey, () => reload()]);
}
