// Package stores is the seller's side of storefronts: the stores of an account (name, slug, logo,
// colours, currency, target market, review setting, open or closed), their pages, and the
// publication of campaigns to them with a price per product and a product status. Buyers' pages
// are the storefront binary's; prices follow commerce/pricing. See docs/storefront.md.
package stores
