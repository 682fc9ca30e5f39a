/** The query key every customers query starts with. */
export const CUSTOMERS_KEY = ['seller-customers'];
