import { describe, expect, it, vi } from 'vitest';
import {
  canReloadForChunk,
  CHUNK_RELOAD_INTERVAL_MS,
  CHUNK_RELOAD_KEY,
  isChunkLoadError,
  mayReloadForChunk,
  reloadForChunk,
} from './chunkReload';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

describe('chunk-load reload', () => {
  it.each<[string, unknown, boolean]>([
    ['Chromium', new TypeError('Failed to fetch dynamically imported module: https://x/assets/a-1.js'), true],
    ['Firefox', new TypeError('error loading dynamically imported module: https://x/assets/a-1.js'), true],
    ['Safari', new TypeError('Importing a module script failed.'), true],
    ['Vite CSS preload', new Error('Unable to preload CSS for /assets/a-1.css'), true],
    ['a named chunk error', Object.assign(new Error('Loading chunk 3 failed'), { name: 'ChunkLoadError' }), true],
    ['any other error', new Error('Request failed with status code 500'), false],
    ['not an error', 'Failed to fetch dynamically imported module', false],
  ])('recognises %s', (_name, error, want) => {
    expect(isChunkLoadError(error)).toBe(want);
  });

  it('reloads at most once per 60 seconds', () => {
    expect(CHUNK_RELOAD_INTERVAL_MS).toBe(60_000);
    const t = 1_800_000_000_000;
    expect(mayReloadForChunk(null, t)).toBe(true);
    expect(mayReloadForChunk(t, t)).toBe(false);
    expect(mayReloadForChunk(t, t + 59_999)).toBe(false);
    expect(mayReloadForChunk(t, t + 60_000)).toBe(true);
    // A clock set back must not block reloads for good.
    expect(mayReloadForChunk(t, t - 1)).toBe(true);
  });

  it('records the reload in the tab’s storage, so the next error within a minute does not reload', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    const t = 1_800_000_000_000;
    expect(canReloadForChunk(storage, t)).toBe(true);
    reloadForChunk(storage, { reload }, t);
    expect(reload).toHaveBeenCalledOnce();
    expect(storage.getItem(CHUNK_RELOAD_KEY)).toBe(String(t));
    expect(canReloadForChunk(storage, t + 30_000)).toBe(false);
    expect(canReloadForChunk(storage, t + 61_000)).toBe(true);
  });

  it('never reloads when it cannot remember doing so', () => {
    const reload = vi.fn();
    reloadForChunk(
      {
        getItem: () => null,
        setItem: () => {
          throw new DOMException('denied', 'SecurityError');
        },
      },
      { reload },
    );
    expect(reload).not.toHaveBeenCalled();
  });

  it('never reloads without storage to remember it in', () => {
    expect(canReloadForChunk(null, 1)).toBe(false);
    const refusing = {
      getItem: (): string | null => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => undefined,
    };
    expect(canReloadForChunk(refusing, 1)).toBe(false);
  });

  it('treats garbage in storage as no reload yet', () => {
    expect(canReloadForChunk(memoryStorage({ [CHUNK_RELOAD_KEY]: 'soon' }), 1)).toBe(true);
  });
});
