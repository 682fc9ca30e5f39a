// Package commerce holds the rules and stores of selling, shared by the bff, the storefront and the
// worker: money, pricing, orders and their state machine, payment gateways and checkout. Nothing in
// it serves HTTP; see docs/commerce.md.
package commerce
