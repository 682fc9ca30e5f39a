// Package promotions is the seller's discount codes: the model (a code unique per seller in any
// letter case, free shipping or a percent off, start and end, usage limits per code and per buyer, a
// minimum order, and the stores or campaigns it applies to), the pure rule Apply that decides what a
// code gives a cart, and the uses: reserved under the code's lock before the buyer is charged and
// tied to the order in the transaction that makes it, so limits hold however many buyers pay at
// once. The checkout, the seller's screens and the abandoned-checkout e-mails all read codes here.
// See docs/promotions.md.
package promotions
