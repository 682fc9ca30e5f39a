// Package searchkeywords is the Search Keywords screen: what buyers searched for in the account's
// stores over a date range, the most searched first, and the searches that found nothing. The
// storefront counts the searches (normalized, per store and hour, written in batches); this package
// only reads them. See docs/search-keywords.md.
package searchkeywords
