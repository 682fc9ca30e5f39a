// Package orders is the order and its three statuses. The order status moves only through the one
// transition table in machine.go (each move appends an order_events row in the caller's
// transaction); the payment status is derived from payments and refunds, the fulfilment status
// from the items' shipments (derive.go). It creates orders (store.go) but knows nothing of carts,
// gateways or HTTP. See docs/commerce.md.
package orders
