package promotions

import (
	"fmt"
	"testing"
	"time"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

// BenchmarkPriceCampaignWithPromotion prices a campaign of 20 products in 10 sizes each (one line
// per product and size) with a percent-off code for the campaign applied: Apply, then the totals.
func BenchmarkPriceCampaignWithPromotion(b *testing.B) {
	var lines []pricing.Line
	cart := Cart{StoreID: 1, Email: "b@example.com", Subtotal: usd(0)}
	rates := map[string]pricing.Rate{}
	for p := range 20 {
		kind := fmt.Sprintf("type%d", p)
		rates[kind] = pricing.Rate{FirstItem: usd(499), AdditionalItem: usd(200)}
		for z := range 10 {
			price := usd(int64(1999 + 100*z))
			lines = append(lines, pricing.Line{ProductType: kind, UnitPrice: price, Quantity: 1})
			cart.Lines = append(cart.Lines, Line{CampaignID: 7, Total: price})
			cart.Subtotal.Amount += price.Amount
		}
	}
	limit := 100
	p := Promotion{Code: "CAMPAIGN20", Kind: KindPercent, Percent: 20, AppliesTo: AppliesToCampaigns, CampaignIDs: []int64{7},
		UsageLimit: &limit, MinOrder: usd(5000)}
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		d, err := Apply(cart, p, now, Uses{Total: 3})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := pricing.Compute(money.USD, lines, rates, nil, d); err != nil {
			b.Fatal(err)
		}
	}
}
