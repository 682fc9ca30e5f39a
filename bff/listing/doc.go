// Package listing holds what the seller's list screens share, so each rule has one owner: whose rows
// a caller sees (the account, narrowed by the store filter), the date-range presets read in the
// user's utc_offset, LIKE escaping for searches, filters given as name[] or name, and the streamed
// CSV and JSON exports (the CSV with its guard against spreadsheet formulas). Paging itself is
// bff/envelope's. It serves no route. Behaviour is described in docs/orders.md, docs/customers.md
// and docs/campaigns.md.
package listing
