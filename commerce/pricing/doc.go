// Package pricing computes what a buyer pays: a product's price (the template's base cost plus the
// seller's margin, plus what a size adds), shipping from the rate table per product type and
// market, the tip and the discount, and the totals. Only the server computes prices; a browser's
// numbers are never read. It does not know carts or orders. See docs/commerce.md.
package pricing
