// Package orders is the seller's orders area: the list with its filters and CSV export, an order's
// page, and the actions a seller takes on an order (hold, release, cancel, refund, ship, deliver,
// archive), each moved by commerce/orders' state machine; and the platform's production steps for
// admins (the queue of items ready to print, produce, ship, deliver, tracking by CSV). Behaviour is
// described in docs/orders.md.
package orders
