import type { Collection } from '../api/collections';

/** The query key every collection query starts with, so one invalidation refreshes them all. */
export const COLLECTIONS_KEY = ['collections'];

/** Where a collection shows, in words. */
export function shownIn(c: Pick<Collection, 'all_stores' | 'stores'>): string {
  return c.all_stores ? 'All my stores' : c.stores.map((s) => s.name).join(', ');
}

/** `list` with the item at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  out.splice(to, 0, ...out.splice(from, 1));
  return out;
}
