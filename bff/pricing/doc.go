// Package pricing is the bff side of the Pricing screen (docs/pricing.md): a store's campaigns
// with every product's price per size, what each costs and earns; one product priced in one of
// the price modes; and a change of many campaigns' prices at once, previewed before it is applied.
// The rules are commerce/pricing's; this package checks the caller's account, store and input and
// answers in the envelope. It needs the pricing tag with get_campaigns to read and update_campaign
// to change (docs/team-and-access.md).
package pricing
