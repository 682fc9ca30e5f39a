// Package seal encrypts the short secrets Pressroom keeps for its users (Klaviyo private keys,
// sellers' Stripe keys, payout account numbers) at rest, with AES-256-GCM under a key derived from a
// configured secret. Every sealed value is bound to a label naming what it is and whose it is, so a
// value copied to another row, or to another purpose, does not open. It holds no rows and knows no
// business rule: its callers choose the labels and the columns. See docs/security.md.
package seal
