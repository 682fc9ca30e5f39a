// Package storefront is the buyers' shop: server-rendered pages of each seller's store, the cart,
// the checkout and the order status pages, in its own binary (cmd/storefront). It imports commerce/
// for every rule of selling and nothing of the bff. See docs/storefront.md.
package storefront
