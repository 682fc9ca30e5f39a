package promotions

import (
	"errors"
	"testing"
	"time"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

func usd(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }

// TestApply decides codes by table: dates, limits per code and per buyer, minimums, stores and
// campaigns, and what each kind gives.
func TestApply(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	before, after := now.Add(-time.Hour), now.Add(time.Hour)
	one, two := 1, 2
	cart := Cart{StoreID: 7, Email: "b@example.com", Subtotal: usd(5000),
		Lines: []Line{{CampaignID: 1, Total: usd(2000)}, {CampaignID: 2, Total: usd(3000)}}}
	percent := func(f func(*Promotion)) Promotion {
		p := Promotion{Code: "SAVE10", Kind: KindPercent, Percent: 10, AppliesTo: AppliesToAll, MinOrder: usd(0)}
		if f != nil {
			f(&p)
		}
		return p
	}
	of := usd(3000)
	cases := []struct {
		name string
		p    Promotion
		used Uses
		want pricing.Discount
		err  Reason
	}{
		{"percent, everywhere", percent(nil), Uses{}, pricing.Discount{Kind: KindPercent, Percent: 10}, ""},
		{"free shipping", percent(func(p *Promotion) { p.Kind, p.Percent = KindFreeShipping, 0 }), Uses{}, pricing.Discount{Kind: KindFreeShipping}, ""},
		{"disabled", percent(func(p *Promotion) { p.Disabled = true }), Uses{}, pricing.Discount{}, ReasonDisabled},
		{"not started", percent(func(p *Promotion) { p.StartsAt = &after }), Uses{}, pricing.Discount{}, ReasonNotStarted},
		{"started", percent(func(p *Promotion) { p.StartsAt = &before; p.EndsAt = &after }), Uses{}, pricing.Discount{Kind: KindPercent, Percent: 10}, ""},
		{"ended", percent(func(p *Promotion) { p.EndsAt = &before }), Uses{}, pricing.Discount{}, ReasonExpired},
		{"ends now", percent(func(p *Promotion) { p.EndsAt = &now }), Uses{}, pricing.Discount{}, ReasonExpired},
		{"single use, unused", percent(func(p *Promotion) { p.UsageLimit = &one }), Uses{}, pricing.Discount{Kind: KindPercent, Percent: 10}, ""},
		{"single use, used", percent(func(p *Promotion) { p.UsageLimit = &one }), Uses{Total: 1}, pricing.Discount{}, ReasonUsedUp},
		{"twice per buyer, once so far", percent(func(p *Promotion) { p.PerBuyerLimit = &two }), Uses{Total: 5, Buyer: 1}, pricing.Discount{Kind: KindPercent, Percent: 10}, ""},
		{"twice per buyer, twice so far", percent(func(p *Promotion) { p.PerBuyerLimit = &two }), Uses{Total: 5, Buyer: 2}, pricing.Discount{}, ReasonBuyerUsedUp},
		{"minimum met exactly", percent(func(p *Promotion) { p.MinOrder = usd(5000) }), Uses{}, pricing.Discount{Kind: KindPercent, Percent: 10}, ""},
		{"minimum not met", percent(func(p *Promotion) { p.MinOrder = usd(5001) }), Uses{}, pricing.Discount{}, ReasonMinimum},
		{"minimum in another currency", percent(func(p *Promotion) { p.MinOrder = money.Money{Amount: 100, Currency: money.EUR} }), Uses{}, pricing.Discount{}, ReasonNotForStore},
		{"this store", percent(func(p *Promotion) { p.AppliesTo, p.StoreIDs = AppliesToStores, []int64{3, 7} }), Uses{}, pricing.Discount{Kind: KindPercent, Percent: 10}, ""},
		{"another store", percent(func(p *Promotion) { p.AppliesTo, p.StoreIDs = AppliesToStores, []int64{3} }), Uses{}, pricing.Discount{}, ReasonNotForStore},
		{"one campaign of the cart", percent(func(p *Promotion) { p.AppliesTo, p.CampaignIDs = AppliesToCampaigns, []int64{2, 9} }), Uses{}, pricing.Discount{Kind: KindPercent, Percent: 10, Of: &of}, ""},
		{"no campaign of the cart", percent(func(p *Promotion) { p.AppliesTo, p.CampaignIDs = AppliesToCampaigns, []int64{9} }), Uses{}, pricing.Discount{}, ReasonNotForItems},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Apply(cart, tc.p, now, tc.used)
			if tc.err != "" {
				var r *RefusedError
				if !errors.As(err, &r) || r.Reason != tc.err || r.Message == "" {
					t.Fatalf("error %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Kind != tc.want.Kind || got.Percent != tc.want.Percent || (got.Of == nil) != (tc.want.Of == nil) ||
				(got.Of != nil && *got.Of != *tc.want.Of) {
				t.Fatalf("discount %+v, want %+v", got, tc.want)
			}
		})
	}
}
