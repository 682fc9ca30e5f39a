// Package gateways is the sellers' own payment gateways as the checkout, the webhooks and the
// refunds see them: which gateway a store's checkouts pay through (the seller's connected Stripe
// account, else the platform's), the gateway a payment was taken through by its recorded name, the
// check against Stripe that proves a seller's keys work, and the sealing of those keys. The seller's
// screens (bff/paymentgateways) write the rows; this package owns how their secrets are sealed and
// read. It serves no HTTP. See docs/payments.md.
package gateways
