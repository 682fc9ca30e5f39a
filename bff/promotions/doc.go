// Package promotions is the seller's promotions screen: discount codes listed with their uses and
// the revenue of the orders that used them, created, changed, disabled and enabled, deleted while
// unused; and the campaigns on promotion now. The model and its rules are commerce/promotions';
// this package checks the seller's input and owns nothing else. See docs/promotions.md.
package promotions
