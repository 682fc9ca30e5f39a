// Package reviews holds the rules of product reviews, shared by the storefront (the buyer's review
// page and what product pages show), the worker (the review links of the delivery e-mail) and the
// bff (the seller's moderation): who may review (the buyer of a delivered item, through the item's
// signed link, once), what a review may hold and how its text is cleaned, and which published
// reviews a store shows under its review setting. It serves no HTTP. See docs/reviews.md.
package reviews
