// Package abandoned is the seller's abandoned checkouts screen: the checkouts of the account's
// stores that buyers left, with the recovery e-mails sent for each, whether the buyer opened the
// link and whether the checkout was paid after all (and the order it became). Finding abandoned
// checkouts and mailing their buyers is commerce/recovery's and the worker's; this package only
// reads. Behaviour is described in docs/customers.md.
package abandoned
