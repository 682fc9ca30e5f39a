// Package abandoned is the worker's pass over abandoned checkouts: now and then it marks the
// checkouts buyers left without paying abandoned and mails the store's abandoned-checkout e-mails
// (steps 1 to 3, each after its delay and at most once) with a signed link that restores the cart
// on the storefront. The rules and their SQL live in commerce/recovery; this package runs them and
// writes the mail. See docs/commerce.md.
package abandoned
