package promotions

import (
	"fmt"
	"slices"
	"time"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

// The kinds of discount a code gives.
const (
	KindFreeShipping = "free"                  // the shipping is free
	KindPercent      = "discount_with_percent" // a percent off the goods
)

// What a code applies to.
const (
	AppliesToAll       = "all"       // every store of the seller
	AppliesToStores    = "stores"    // the chosen stores
	AppliesToCampaigns = "campaigns" // the chosen campaigns' products, in any store of the seller
)

// Promotion is a discount code.
type Promotion struct {
	ID            int64       `json:"id"`
	SellerID      int64       `json:"-"`
	Code          string      `json:"code"`
	Kind          string      `json:"kind"`
	Percent       int         `json:"percent"` // of KindPercent, 1 to 100
	StartsAt      *time.Time  `json:"starts_at"`
	EndsAt        *time.Time  `json:"ends_at"`
	UsageLimit    *int        `json:"usage_limit"`     // nil: no limit
	PerBuyerLimit *int        `json:"per_buyer_limit"` // nil: no limit
	MinOrder      money.Money `json:"min_order"`       // of the goods; 0: none
	AppliesTo     string      `json:"applies_to"`
	StoreIDs      []int64     `json:"store_ids"`
	CampaignIDs   []int64     `json:"campaign_ids"`
	Disabled      bool        `json:"disabled"`
}

// Line is a cart line as a code sees it.
type Line struct {
	CampaignID int64
	Total      money.Money // the line's price times its quantity
}

// Cart is what a code is applied to: the store, the buyer and the goods.
type Cart struct {
	StoreID  int64
	Email    string
	Subtotal money.Money
	Lines    []Line
}

// Uses counts a code's uses so far (other checkouts' than the one being applied).
type Uses struct {
	Total int `db:"total"` // by anyone
	Buyer int `db:"buyer"` // by this cart's buyer (same e-mail, any case)
}

// Reason says why a code does not apply.
type Reason string

// The reasons a code does not apply.
const (
	ReasonUnknown     Reason = "unknown"
	ReasonDisabled    Reason = "disabled"
	ReasonNotStarted  Reason = "not_started"
	ReasonExpired     Reason = "expired"
	ReasonUsedUp      Reason = "used_up"
	ReasonBuyerUsedUp Reason = "buyer_used_up"
	ReasonMinimum     Reason = "minimum"
	ReasonNotForStore Reason = "not_for_store"
	ReasonNotForItems Reason = "not_for_items"
)

// RefusedError is a code that does not apply, with the buyer's message.
type RefusedError struct {
	Reason  Reason
	Message string
}

func (e *RefusedError) Error() string { return e.Message }

func refused(r Reason, msg string) error { return &RefusedError{Reason: r, Message: msg} }

// Unknown is the refusal of a code the seller does not have.
func Unknown() error {
	return refused(ReasonUnknown, "This discount code does not exist. Check its spelling.")
}

// Apply decides what promotion p gives cart at now, after used uses: the discount for pricing, or a
// *RefusedError saying why not. A percent code takes its percent off the goods it applies to (all
// of them, or the chosen campaigns' lines); a free-shipping code takes off the whole shipping. The
// minimum order is of the whole cart's goods, in the minimum's currency.
func Apply(cart Cart, p Promotion, now time.Time, used Uses) (pricing.Discount, error) {
	switch {
	case p.Disabled:
		return pricing.Discount{}, refused(ReasonDisabled, "This discount code is no longer valid.")
	case p.StartsAt != nil && now.Before(*p.StartsAt):
		return pricing.Discount{}, refused(ReasonNotStarted, "This discount code is not valid yet.")
	case p.EndsAt != nil && !now.Before(*p.EndsAt):
		return pricing.Discount{}, refused(ReasonExpired, "This discount code has expired.")
	case p.UsageLimit != nil && used.Total >= *p.UsageLimit:
		return pricing.Discount{}, refused(ReasonUsedUp, "This discount code has been used up.")
	case p.PerBuyerLimit != nil && used.Buyer >= *p.PerBuyerLimit:
		return pricing.Discount{}, refused(ReasonBuyerUsedUp, "You have already used this discount code.")
	case p.AppliesTo == AppliesToStores && !slices.Contains(p.StoreIDs, cart.StoreID):
		return pricing.Discount{}, refused(ReasonNotForStore, "This discount code is not valid in this store.")
	}
	if p.MinOrder.Amount > 0 {
		if p.MinOrder.Currency != cart.Subtotal.Currency {
			return pricing.Discount{}, refused(ReasonNotForStore, "This discount code is not valid in this store.")
		}
		if cart.Subtotal.Amount < p.MinOrder.Amount {
			return pricing.Discount{}, refused(ReasonMinimum, fmt.Sprintf("This discount code needs an order of at least %s.", p.MinOrder))
		}
	}
	d := pricing.Discount{Kind: p.Kind, Percent: p.Percent}
	if p.AppliesTo != AppliesToCampaigns {
		return d, nil
	}
	of, found := money.Zero(cart.Subtotal.Currency), false
	for _, l := range cart.Lines {
		if !slices.Contains(p.CampaignIDs, l.CampaignID) {
			continue
		}
		found = true
		var err error
		if of, err = of.Add(l.Total); err != nil {
			return pricing.Discount{}, err
		}
	}
	if !found {
		return pricing.Discount{}, refused(ReasonNotForItems, "This discount code is not valid for the products in your cart.")
	}
	d.Of = &of
	return d, nil
}

// The states of a code as the seller's list shows them.
const (
	StatusActive    = "active"
	StatusScheduled = "scheduled"
	StatusExpired   = "expired"
	StatusUsedUp    = "used_up"
	StatusDisabled  = "disabled"
)

// Status is the state of p at now after uses paid uses: the same checks Apply makes before it looks
// at a cart.
func Status(p Promotion, now time.Time, uses int) string {
	switch {
	case p.Disabled:
		return StatusDisabled
	case p.StartsAt != nil && now.Before(*p.StartsAt):
		return StatusScheduled
	case p.EndsAt != nil && !now.Before(*p.EndsAt):
		return StatusExpired
	case p.UsageLimit != nil && uses >= *p.UsageLimit:
		return StatusUsedUp
	}
	return StatusActive
}
