// Package pricing owns every rule of what things cost and sell for (docs/pricing.md, docs/commerce.md):
// a product's price per size in a store by its price mode (adjust_price: the base cost plus a
// margin; fixed_price; custom_price: a price per size), what a size costs to make (base cost, the
// size's extra cost, the extra print cost of print spaces beyond the first), the platform's fee
// settings and the processing fee, the compare-at price, a change of many products' prices, and
// at checkout shipping from the rate table, the tip, the discount and the totals. Amounts are
// integer minor units; money.Round is the one rounding. Only the server computes prices; a
// browser's numbers are never read. It stores prices (store_products, store_product_sizes) but
// does not know carts or orders.
package pricing
