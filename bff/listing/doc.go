// Package listing holds what the seller's list screens share, so each rule has one owner: whose rows
// a caller sees (the account, narrowed by the store filter), the date-range presets read in the
// user's utc_offset, LIKE escaping for searches, and the streamed CSV export with its guard against
// spreadsheet formulas. Paging itself is bff/envelope's. It serves no route. Behaviour is described
// in docs/orders.md and docs/customers.md.
package listing
