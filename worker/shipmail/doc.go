// Package shipmail mails an order's buyer about their parcels, from the platform's address in the
// store's name: orders:shipping-mail when a parcel left (the carrier, the tracking number and its
// link) and orders:delivery-mail when items arrived (each with the signed link to review it, when
// the store takes reviews). commerce/orders queues both with the change, once per tracking number
// and once per delivery (docs/orders.md, docs/reviews.md).
package shipmail
