import { describe, expect, it, vi } from 'vitest';
import { hardReload, hardReloadHotkeys, HARD_RELOAD_HOTKEYS } from './hardReload';

describe('hard reload', () => {
  it('clears local storage, then reloads', () => {
    const calls: string[] = [];
    hardReload({ clear: () => calls.push('clear') }, { reload: () => calls.push('reload') });
    expect(calls).toEqual(['clear', 'reload']);
  });

  it('still reloads when storage refuses', () => {
    const reload = vi.fn();
    hardReload(
      {
        clear: () => {
          throw new DOMException('denied', 'SecurityError');
        },
      },
      { reload },
    );
    expect(reload).toHaveBeenCalledOnce();
  });

  it('is bound to Shift+F5 and Ctrl+Shift+R', () => {
    const reload = vi.fn();
    const hotkeys = hardReloadHotkeys(reload);
    expect(hotkeys.map(([key]) => key)).toEqual([...HARD_RELOAD_HOTKEYS]);
    expect(HARD_RELOAD_HOTKEYS).toEqual(['shift+F5', 'ctrl+shift+R']);
    for (const [, handler] of hotkeys) handler(new KeyboardEvent('keydown'));
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
