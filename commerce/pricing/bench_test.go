package pricing_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
	"github.com/pressroom/pressroom/commerce/promotions"
)

// BenchmarkPriceCampaignWithPromotion prices a campaign of 20 products in 10 sizes each, as the
// Pricing screen and the storefront do: each product's intent resolved and quoted size by size
// (cost, price, compare-at price, fee, earnings, the loss check), then one of each size in a cart
// with a 20 % code for the campaign applied (promotions.Apply) and the totals (pricing.Compute).
// The target is 1 ms per campaign (docs/pricing.md).
func BenchmarkPriceCampaignWithPromotion(b *testing.B) {
	usd := func(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }
	set := pricing.Settings{Fees: pricing.Fees{BasisPoints: 400, Min: 50}, CompareRate: 2500}
	costs := make([]pricing.Cost, 20)
	intents := make([]pricing.Intent, 20)
	rates := map[string]pricing.Rate{}
	kinds := make([]string, 20)
	for p := range costs {
		kinds[p] = fmt.Sprintf("type%d", p)
		c := pricing.Cost{Currency: money.USD, Base: int64(800 + 50*p), ExtraPrint: 400, Designed: 2}
		for z := range 10 {
			c.Sizes = append(c.Sizes, pricing.Size{Name: fmt.Sprintf("S%d", z), Extra: int64(100 * z)})
		}
		costs[p] = c
		switch p % 3 {
		case 0:
			intents[p] = pricing.Intent{Mode: pricing.Adjust, Margin: 1149}
		case 1:
			intents[p] = pricing.Intent{Mode: pricing.Fixed, Price: 4999}
		default:
			in := pricing.Intent{Mode: pricing.Custom, Sizes: map[string]int64{}}
			for _, z := range c.Sizes {
				in.Sizes[z.Name] = 2500 + 2*z.Extra
			}
			intents[p] = in
		}
		rates[kinds[p]] = pricing.Rate{FirstItem: usd(499), AdditionalItem: usd(200)}
	}
	limit := 100
	code := promotions.Promotion{Code: "CAMPAIGN20", Kind: promotions.KindPercent, Percent: 20, AppliesTo: promotions.AppliesToCampaigns,
		CampaignIDs: []int64{7}, UsageLimit: &limit, MinOrder: usd(5000)}
	now := time.Now()
	lines := make([]pricing.Line, 0, 200)
	cart := promotions.Cart{StoreID: 1, Email: "b@example.com", Lines: make([]promotions.Line, 0, 200)}
	b.ReportAllocs()
	for b.Loop() {
		lines, cart.Lines, cart.Subtotal = lines[:0], cart.Lines[:0], usd(0)
		for p, c := range costs {
			_, q, err := pricing.Sell(c, intents[p], set)
			if err != nil {
				b.Fatal(err)
			}
			for _, z := range q.Sizes {
				lines = append(lines, pricing.Line{ProductType: kinds[p], UnitPrice: usd(z.Price), Quantity: 1})
				cart.Lines = append(cart.Lines, promotions.Line{CampaignID: 7, Total: usd(z.Price)})
				cart.Subtotal.Amount += z.Price
			}
		}
		d, err := promotions.Apply(cart, code, now, promotions.Uses{Total: 3})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := pricing.Compute(money.USD, lines, rates, nil, d); err != nil {
			b.Fatal(err)
		}
	}
}
