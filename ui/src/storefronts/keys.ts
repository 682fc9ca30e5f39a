/** The query key every store query starts with, so one invalidation refreshes them all. */
export const STORES_KEY = ['stores'];

/** The query key every store page query starts with. */
export const STORE_PAGES_KEY = ['store-pages'];
