// Package billing is Billing & Payouts: a seller's balances (available, held, total), the
// transactions of the ledger with their type and date-range filters and CSV export, and payout
// requests; and the admins' side: processing payouts step by step, adjusting a seller's balance
// with a reason, and making an order's earnings available. The money rules are commerce/ledger's;
// this package reads requests, checks permissions (get_payments for the seller's side) and shapes
// answers. See docs/money.md.
package billing
