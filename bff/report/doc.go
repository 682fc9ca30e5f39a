// Package report holds what the seller's reports and exports share: the date range of a list (a
// preset or custom days, read in the user's utc_offset) and the CSV cell that keeps a spreadsheet
// from reading someone's text as a formula. The orders list and the billing transactions use it.
package report
