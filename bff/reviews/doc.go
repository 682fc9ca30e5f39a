// Package reviews is the seller's side of product reviews (the Product Reviews screen): the reviews
// buyers wrote of the account's stores' sales, filtered by rating, store, status and date, and the
// seller's publish, hide and reply. Who may write a review and what a store shows of them are
// commerce/reviews' rules; this package owns the moderation calls. See docs/reviews.md.
package reviews
