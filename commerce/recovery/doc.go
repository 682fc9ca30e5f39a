// Package recovery is what happens to a checkout the buyer left: it becomes abandoned after a while
// without payment, the store's abandoned-checkout e-mails are claimed one step at a time (each step
// once, however many workers look), the signed link in them restores the buyer's cart, and a
// checkout paid after it was abandoned counts as recovered. It sends no mail and serves no page:
// the worker mails, the storefront answers the link. See docs/commerce.md.
package recovery
