// Package checkout is the buyer's way from a cart to an order: cart rows (what was picked, never a
// price), the checkout (contact, address, tip, discount code) whose totals only the server computes,
// payment through a payments.Gateway, and the completion that turns a paid checkout into exactly
// one order, however often and however concurrently it is confirmed. It does not render pages; the
// storefront does. See docs/commerce.md.
package checkout
