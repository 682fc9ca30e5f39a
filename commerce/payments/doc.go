// Package payments is the gateway interface checkouts pay through, shaped like Stripe's
// PaymentIntents (create with an idempotency key, confirm, webhook events with ids to deduplicate),
// and the test gateway of development and test stacks, which moves no money and is refused in
// production. It keeps no rows itself: commerce/checkout records payments.
package payments
