// Package collections is the seller's side of collections: named groups of the seller's campaigns,
// each with an address (slug) unique in the account, a description, the stores it shows in (all or
// chosen ones) and an ordered list of featured campaigns. The storefront reads the same tables to
// show them in a store's menu, on its home page and at /collections/{slug}; this package owns the
// seller's input and nothing of the buyers' pages. See docs/collections.md.
package collections
