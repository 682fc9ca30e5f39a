// Package paymentgateways is the seller's side of their own payment gateways
// (/settings/payment-gateways): a seller with custom payment connects a Stripe account with its
// secret key, publishable key and webhook signing secret, checked against Stripe before anything is
// stored, sealed at rest and answered back only masked, and chooses which of their stores pay into
// it. Deleting one gives its stores back to the platform's gateway. How a checkout, a webhook or a
// refund then reaches the seller's account is commerce/gateways'. See docs/payments.md.
package paymentgateways
