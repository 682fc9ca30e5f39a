// Package paymentaccounts is the seller's payment accounts (/settings/payment-account): where their
// payouts go, for each of the payout methods (bank, payoneer, pingpong, lianlian, payoneer_vn) with
// the fields that method needs. Sensitive fields are sealed at rest and answered back masked. A new
// or changed account is confirmed through a single-use link e-mailed to the seller, and is then
// valid; admins may mark one invalid; one valid account is the default. Payout requests
// (commerce/ledger) go to a valid account. See docs/payments.md.
package paymentaccounts
