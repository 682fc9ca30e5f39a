// Package reports is the seller's Dashboard overview: over a date range, the account's sales,
// orders, items, average order value, earnings and store visits beside those of the period just
// before, sales per day, by country, store, device and payment method, and the top campaigns. It
// only reads: orders and their payments, the ledger's entries of those orders, and the visits the
// storefront counts. It is not a place for figures any other screen owns (balances, payouts).
// Behaviour is described in docs/overview.md.
package reports
