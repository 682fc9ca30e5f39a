// Package ledger is the sellers' money: an append-only list of entries in minor units, each naming
// its cause (an order, a refund, a payout, a top-up, an admin's adjustment with its reason) and
// carrying a unique idempotency key, with running totals per seller and currency updated under a
// row lock in the same transaction as each entry, so a balance is one row read and never goes below
// zero. It computes an order's earnings, books them held when the order is paid, makes them
// available when it ships, takes refunds back, and runs payouts through their statuses. It serves
// no HTTP; nothing here updates or deletes an entry. See docs/money.md.
package ledger
