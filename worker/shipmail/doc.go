// Package shipmail runs orders:shipping-mail: it mails an order's buyer that a parcel left, with the
// carrier, the tracking number and its link, from the platform's address in the store's name.
// commerce/orders queues it with the shipment, once per order and tracking number (docs/orders.md).
package shipmail
