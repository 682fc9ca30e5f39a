import { afterEach, describe, expect, it } from 'vitest';
import { readCookie } from '../cookies';
import { COLOR_SCHEME_KEY, colorSchemeManager } from './colorSchemeManager';

describe('colorSchemeManager (dark mode persists in storage and a cookie)', () => {
  afterEach(() => colorSchemeManager().clear());

  it('stores the choice in localStorage and the color-scheme cookie', () => {
    colorSchemeManager().set('dark');

    expect(window.localStorage.getItem(COLOR_SCHEME_KEY)).toBe('dark');
    expect(readCookie(COLOR_SCHEME_KEY)).toBe('dark');
    expect(colorSchemeManager().get('light')).toBe('dark');
  });

  it('falls back to the cookie when storage was cleared', () => {
    colorSchemeManager().set('dark');
    window.localStorage.removeItem(COLOR_SCHEME_KEY);

    expect(colorSchemeManager().get('light')).toBe('dark');
  });

  it('uses the default when nothing is stored and forgets both on clear', () => {
    const manager = colorSchemeManager();
    manager.set('dark');
    manager.clear();

    expect(manager.get('light')).toBe('light');
    expect(readCookie(COLOR_SCHEME_KEY)).toBeUndefined();
  });
});
