// Package crossselling is the seller's cross-selling rules: "buyers of this campaign also see these
// campaigns", listed with the orders each produced, created, changed and removed. The storefront
// reads the rules to show the suggestions; this package serves only the seller's screen. Behaviour
// is described in docs/customers.md.
package crossselling
