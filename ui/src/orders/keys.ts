/** The query key every orders query starts with, so one invalidation refreshes list and pages. */
export const ORDERS_KEY = ['seller-orders'];
