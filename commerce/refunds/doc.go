// Package refunds gives an order's money back through the gateway that took it: the refund is
// reserved in commerce/orders (so refunds sent together never pass what was paid), sent to the
// gateway with an idempotency key made of the order and the client's key (so a retry after a failure
// refunds once), and settled in a second transaction. See docs/orders.md.
package refunds
