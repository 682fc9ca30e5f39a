/**
 * A page chunk that fails to load (a deploy replaced the hashed files the open tab still
 * names) triggers one full reload, at most once per 60 seconds, so a chunk that is really missing
 * ends on the error page instead of reloading forever.
 */
export const CHUNK_RELOAD_INTERVAL_MS = 60_000;
/** Where the time of the last such reload is kept, per tab. */
export const CHUNK_RELOAD_KEY = 'chunk-reload-at';

const CHUNK_ERROR_MESSAGES = [
  'Failed to fetch dynamically imported module', // Chromium
  'error loading dynamically imported module', // Firefox
  'Importing a module script failed', // Safari
  'Unable to preload CSS', // Vite's CSS preload
];

/** Whether `error` says a code-split chunk (script or its CSS) could not be loaded. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ChunkLoadError') return true;
  return CHUNK_ERROR_MESSAGES.some((message) => error.message.includes(message));
}

/** Whether a reload is allowed now, given when the last one happened (null: never in this tab). */
export function mayReloadForChunk(lastReloadAt: number | null, now: number): boolean {
  return lastReloadAt === null || !(now - lastReloadAt < CHUNK_RELOAD_INTERVAL_MS && now >= lastReloadAt);
}

type KeyValue = Pick<Storage, 'getItem' | 'setItem'>;

/** The tab's session storage, or null where the browser refuses it. */
function tabStorage(): KeyValue | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Whether this tab may reload for a chunk error now; never without storage to remember it in. */
export function canReloadForChunk(storage: KeyValue | null = tabStorage(), now: number = Date.now()): boolean {
  if (!storage) return false;
  try {
    const raw = storage.getItem(CHUNK_RELOAD_KEY);
    const at = raw === null ? Number.NaN : Number(raw);
    return mayReloadForChunk(Number.isFinite(at) ? at : null, now);
  } catch {
    return false;
  }
}

/** Records the reload and reloads the page; does nothing when the reload cannot be recorded. */
export function reloadForChunk(
  storage: KeyValue | null = tabStorage(),
  location: Pick<Location, 'reload'> = window.location,
  now: number = Date.now(),
): void {
  if (!storage) return;
  try {
    storage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    return;
  }
  location.reload();
}
