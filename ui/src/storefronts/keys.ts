/** The query key every store query starts with, so one invalidation refreshes them all. */
export const STORES_KEY = ['stores'];
