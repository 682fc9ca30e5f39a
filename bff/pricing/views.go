package pricing

import (
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

// SizeView is one size of a product priced, in money as the screens show it.
type SizeView struct {
	Size     string      `json:"size"`
	Cost     money.Money `json:"cost"`
	Price    money.Money `json:"price"`
	Fee      money.Money `json:"fee"`
	Earnings money.Money `json:"earnings"`
}

// QuoteView is a product's prices explained: its mode, its price (the lowest of its sizes) and
// compare-at price, its base cost and extra print cost, the margin of Adjust mode (the price less
// the base cost) and every size.
type QuoteView struct {
	Mode       pricing.Mode `json:"mode"`
	Price      money.Money  `json:"price"`
	CompareAt  *money.Money `json:"compare_at_price"`
	BaseCost   money.Money  `json:"base_cost"`
	ExtraPrint money.Money  `json:"extra_print_cost"`
	Margin     money.Money  `json:"margin"`
	Sizes      []SizeView   `json:"sizes"`
}

// ProductView is a campaign product in a store with its prices.
type ProductView struct {
	ProductID  int64     `json:"product_id"`
	CampaignID int64     `json:"campaign_id"`
	Campaign   string    `json:"campaign"`
	Name       string    `json:"name"`
	Status     string    `json:"status"`
	Quote      QuoteView `json:"quote"`
}

// CampaignView is a campaign on sale in a store with its products.
type CampaignView struct {
	ID       int64         `json:"id"`
	Name     string        `json:"name"`
	Products []ProductView `json:"products"`
}

// ChangeRow is what a change does to one product: its prices before and after, or why it cannot.
type ChangeRow struct {
	ProductID  int64      `json:"product_id"`
	CampaignID int64      `json:"campaign_id"`
	Campaign   string     `json:"campaign"`
	Name       string     `json:"name"`
	Before     QuoteView  `json:"before"`
	After      *QuoteView `json:"after"`
	Problem    string     `json:"problem"`
}

// ChangeView is a change of many products' prices, previewed or applied.
type ChangeView struct {
	Currency money.Currency `json:"currency"`
	Rows     []ChangeRow    `json:"rows"`
	Changed  int            `json:"changed"`
	Refused  int            `json:"refused"`
}

// viewOf shows quote q in money, with compareAt as its compare-at price (0: none).
func viewOf(q pricing.Quote, compareAt int64) QuoteView {
	m := func(a int64) money.Money { return money.Money{Amount: a, Currency: q.Currency} }
	v := QuoteView{Mode: q.Mode, Price: m(q.Price), BaseCost: m(q.Base), ExtraPrint: m(q.ExtraPrint), Margin: m(q.Price - q.Base),
		Sizes: make([]SizeView, len(q.Sizes))}
	if compareAt > 0 {
		c := m(compareAt)
		v.CompareAt = &c
	}
	for i, z := range q.Sizes {
		v.Sizes[i] = SizeView{Size: z.Size, Cost: m(z.Cost), Price: m(z.Price), Fee: m(z.Fee), Earnings: m(z.Earnings)}
	}
	return v
}

// storedView is product p's prices as the store keeps them now, at settings s: its compare-at
// price the one stored, which the store shows.
func storedView(p pricing.Product, s pricing.Settings) QuoteView {
	return viewOf(pricing.QuoteOf(p.Cost, p.Stored, s), p.CompareAt)
}

// productView is product p of a store priced at settings s.
func productView(p pricing.Product, s pricing.Settings) ProductView {
	return ProductView{ProductID: p.ProductID, CampaignID: p.CampaignID, Campaign: p.Campaign, Name: p.Name, Status: p.Status,
		Quote: storedView(p, s)}
}
