// Package orders is the seller's orders area: the list with its filters and CSV export, an order's
// page, and the actions a seller takes on an order (hold, release, cancel, archive), each moved by
// commerce/orders' state machine. Behaviour is described in docs/orders.md.
package orders
