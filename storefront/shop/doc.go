// Package shop serves a store's pages: it resolves the store by host ({slug}.{store domain}) or by
// path (/s/{slug}/), renders html/template pages that work without JavaScript, and hands carts,
// checkouts and payments to commerce/checkout. It holds no rule of pricing or orders.
package shop
