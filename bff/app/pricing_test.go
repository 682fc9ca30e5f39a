package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"

	bffpricing "github.com/pressroom/pressroom/bff/pricing"
)

// pricingStack is the bff with the demo seller signed in, their store, and two campaigns of theirs
// on sale there at base cost plus 11.49: a T-shirt (8.50, 2XL 2.00 more) with a mug (5.50, 15oz
// 3.00 more), and a hoodie (18.00).
type pricingStack struct {
	*stack
	token            string
	store            int64
	tees, hoodies    int64
	shirt, mug, hood int64
}

func newPricingStack(t *testing.T) *pricingStack {
	t.Helper()
	s := newStack(t)
	p := &pricingStack{stack: s, token: s.login("seller", "seller@example.com")}
	if err := s.app.DB.Get(&p.store, `SELECT id FROM stores WHERE slug = 'demo'`); err != nil {
		t.Fatal(err)
	}
	p.tees = p.campaign(t, "Pricing tees", "T-shirt", "Mug wrap")
	p.hoodies = p.campaign(t, "Pricing hoodies", "Hoodie")
	for _, id := range []int64{p.tees, p.hoodies} {
		r := s.do(http.MethodPost, fmt.Sprintf("/api/seller/stores/%d/campaigns", p.store), p.token, map[string]any{"campaign_id": id, "margin": "11.49"})
		if r.status != http.StatusOK {
			t.Fatalf("publish: %d %s", r.status, r.raw)
		}
	}
	product := func(campaign int64, name string) int64 {
		var id int64
		if err := s.app.DB.Get(&id, `SELECT id FROM campaign_products WHERE campaign_id = $1 AND name = $2`, campaign, name); err != nil {
			t.Fatal(err)
		}
		return id
	}
	p.shirt, p.mug, p.hood = product(p.tees, "T-shirt"), product(p.tees, "Mug wrap"), product(p.hoodies, "Hoodie")
	return p
}

// campaign creates a campaign of the seller with products of the named templates.
func (p *pricingStack) campaign(t *testing.T, name string, templates ...string) int64 {
	t.Helper()
	var ids []int64
	for _, tn := range templates {
		var id int64
		if err := p.app.DB.Get(&id, `SELECT id FROM product_templates WHERE name = $1`, tn); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	r := p.do(http.MethodPost, "/api/seller/campaigns", p.token, map[string]any{"name": name, "template_ids": ids})
	if r.status != http.StatusOK {
		t.Fatalf("create campaign: %d %s", r.status, r.raw)
	}
	return int64(r.body.Data.(map[string]any)["id"].(float64))
}

// sizePrices reads what each size of product sells for in the store now, as buyers pay it.
func (p *pricingStack) sizePrices(t *testing.T, product int64) map[string]int64 {
	t.Helper()
	var rows []struct {
		Size  string `db:"size"`
		Price int64  `db:"price"`
	}
	const q = `SELECT z.size, CASE sp.price_mode WHEN 'fixed_price' THEN sp.price
	WHEN 'custom_price' THEN coalesce(x.price, sp.price + z.extra_price) ELSE sp.price + z.extra_price END AS price
FROM store_products sp JOIN campaign_products cp ON cp.id = sp.product_id
JOIN product_sizes z ON z.product_type = cp.product_type
LEFT JOIN store_product_sizes x ON x.store_id = sp.store_id AND x.product_id = sp.product_id AND x.size = z.size
WHERE sp.store_id = $1 AND sp.product_id = $2`
	if err := p.app.DB.Select(&rows, q, p.store, product); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, r := range rows {
		out[r.Size] = r.Price
	}
	return out
}

type quoteReply struct {
	Mode  string `json:"mode"`
	Price struct {
		Amount int64 `json:"amount"`
	} `json:"price"`
	Sizes []struct {
		Size  string `json:"size"`
		Price struct {
			Amount int64 `json:"amount"`
		} `json:"price"`
		Earnings struct {
			Amount int64 `json:"amount"`
		} `json:"earnings"`
	} `json:"sizes"`
	CompareAt *struct {
		Amount int64 `json:"amount"`
	} `json:"compare_at_price"`
}

// TestPricing: the Pricing screen's list, one product priced in each mode with its refusals, a
// change of many campaigns previewed then applied (or refused whole), and who may.
func TestPricing(t *testing.T) {
	p := newPricingStack(t)
	store := strconv.FormatInt(p.store, 10)

	veteran := p.login("seller", "veteran@example.com")
	if r := p.do(http.MethodGet, "/api/seller/pricing?store_id="+store, veteran, nil); r.status != http.StatusForbidden {
		t.Errorf("a seller without the pricing tag: %d", r.status)
	}
	p.app.DB.MustExec(`UPDATE users SET tags = tags || '{pricing}' WHERE email = 'veteran@example.com'`)
	veteran = p.login("seller", "veteran@example.com")
	if r := p.do(http.MethodGet, "/api/seller/pricing?store_id="+store, veteran, nil); r.status != http.StatusNotFound {
		t.Errorf("another seller's store: %d %s", r.status, r.raw)
	}
	if r := p.do(http.MethodGet, "/api/seller/pricing?store_id=x", p.token, nil); r.status != 422 || r.body.Errors[0].Field != "store_id" {
		t.Errorf("no store: %d %s", r.status, r.raw)
	}

	r := p.do(http.MethodGet, "/api/seller/pricing/settings?store_id="+store, p.token, nil)
	var set bffpricing.SettingsView
	decode(t, r, &set)
	if set.ProcessingFee != "4" || set.ProcessingFeeMin.Amount != 50 || set.ComparePriceRate != "25" || set.Currency != "USD" {
		t.Errorf("settings %+v", set)
	}

	r = p.do(http.MethodGet, "/api/seller/pricing?store_id="+store+"&q=Pricing", p.token, nil)
	var page struct {
		Data []struct {
			ID       int64 `json:"id"`
			Products []struct {
				ProductID int64      `json:"product_id"`
				Quote     quoteReply `json:"quote"`
			} `json:"products"`
		} `json:"data"`
		Total int `json:"total"`
	}
	decode2(t, r, &page)
	if page.Total != 2 || page.Data[0].ID != p.hoodies || len(page.Data[1].Products) != 2 {
		t.Fatalf("list %s", r.raw)
	}
	shirt := page.Data[1].Products[0].Quote
	// 19.99, 2XL 21.99; earns 19.99 - 8.50 - 0.80 fee = 10.69; compare-at 24.99
	if shirt.Mode != "adjust_price" || shirt.Sizes[0].Price.Amount != 1999 || shirt.Sizes[0].Earnings.Amount != 1069 ||
		shirt.Sizes[4].Size != "2XL" || shirt.Sizes[4].Price.Amount != 2199 || shirt.CompareAt.Amount != 2499 {
		t.Errorf("shirt quote %+v", shirt)
	}

	path := fmt.Sprintf("/api/seller/pricing/products/%d", p.shirt)
	for _, tc := range []struct {
		name  string
		body  map[string]any
		field string
		msg   string
	}{
		{"no such mode", map[string]any{"mode": "cheap"}, "mode", "The price mode must be one of adjust_price, fixed_price, custom_price."},
		{"a margin that is no amount", map[string]any{"mode": "adjust_price", "margin": "12.345"}, "margin", "The margin must be an amount like 19.99."},
		{"a size left out", map[string]any{"mode": "custom_price", "sizes": map[string]string{"S": "20", "M": "20", "L": "20", "XL": "20"}},
			"sizes.2XL", "Give a price for size 2XL."},
		{"a size it lacks", map[string]any{"mode": "custom_price", "sizes": map[string]string{"S": "20", "M": "20", "L": "20", "XL": "20", "2XL": "22", "5XL": "25"}},
			"sizes.5XL", "The product does not come in size 5XL."},
		{"a price at a loss in a size that costs more", map[string]any{"mode": "fixed_price", "price": "9.00"}, "price",
			"Size 2XL at $9.00 earns less than nothing: it costs $10.50 to make and $0.50 in fees."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.body["store_id"] = p.store
			r := p.do(http.MethodPut, path, p.token, tc.body)
			if r.status != 422 || r.body.Errors[0].Field != tc.field || r.body.Errors[0].Message != tc.msg {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}
	if got := p.sizePrices(t, p.shirt); got["S"] != 1999 || got["2XL"] != 2199 {
		t.Fatalf("refused changes changed prices: %v", got)
	}
	r = p.do(http.MethodPut, path, p.token, map[string]any{"store_id": p.store, "mode": "custom_price",
		"sizes": map[string]string{"S": "21", "M": "21.50", "L": "22", "XL": "22.50", "2XL": "25"}})
	var priced struct {
		Quote quoteReply `json:"quote"`
	}
	decode(t, r, &priced)
	if r.status != 200 || priced.Quote.Mode != "custom_price" || priced.Quote.Price.Amount != 2100 {
		t.Fatalf("custom: %d %s", r.status, r.raw)
	}
	if got := p.sizePrices(t, p.shirt); got["M"] != 2150 || got["2XL"] != 2500 {
		t.Errorf("custom prices stored %v", got)
	}
	if r := p.do(http.MethodPut, path, veteran, map[string]any{"store_id": p.store, "mode": "fixed_price", "price": "30"}); r.status != 404 {
		t.Errorf("another seller prices the product: %d", r.status)
	}

	// A change of both campaigns to a 15.00 margin, previewed: nothing stored yet.
	change := map[string]any{"store_id": p.store, "campaign_ids": []int64{p.tees, p.hoodies}, "change": map[string]any{"kind": "margin", "value": "15.00"}}
	r = p.do(http.MethodPost, "/api/seller/pricing/preview", p.token, change)
	var view bffpricing.ChangeView
	decode(t, r, &view)
	if r.status != 200 || view.Changed != 3 || view.Refused != 0 || len(view.Rows) != 3 {
		t.Fatalf("preview %d %s", r.status, r.raw)
	}
	for _, row := range view.Rows {
		if row.ProductID == p.mug && (row.After.Sizes[1].Size != "15oz" || row.After.Sizes[1].Price.Amount != 2350 || row.Before.Sizes[1].Price.Amount != 1999) {
			t.Errorf("mug preview %+v -> %+v", row.Before.Sizes, row.After.Sizes)
		}
	}
	if got := p.sizePrices(t, p.hood); got["S"] != 2949 {
		t.Fatalf("the preview changed prices: %v", got)
	}

	// To a price of 10.00: the hoodie (18.00 to make) and the shirt would lose; nothing changes.
	change["change"] = map[string]any{"kind": "price", "value": "10.00"}
	r = p.do(http.MethodPost, "/api/seller/pricing/apply", p.token, change)
	if r.status != 422 || r.body.Message != "2 products cannot take this change; nothing was changed." || len(r.body.Errors) != 2 {
		t.Fatalf("loss: %d %s", r.status, r.raw)
	}
	if got := p.sizePrices(t, p.mug); got["11oz"] != 1699 {
		t.Errorf("a refused change changed the mug: %v", got)
	}
	for _, tc := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"store_id": p.store, "campaign_ids": []int64{}, "change": map[string]any{"kind": "margin", "value": "1"}}, "campaign_ids"},
		{map[string]any{"store_id": p.store, "campaign_ids": []int64{p.tees}, "change": map[string]any{"kind": "double", "value": "1"}}, "change.kind"},
		{map[string]any{"store_id": p.store, "campaign_ids": []int64{p.tees}, "change": map[string]any{"kind": "percent", "value": "2.5"}}, "change.value"},
		{map[string]any{"store_id": p.store, "campaign_ids": []int64{p.tees}, "change": map[string]any{"kind": "percent", "value": "-100"}}, "change.value"},
		{map[string]any{"store_id": p.store, "campaign_ids": []int64{p.tees, 1 << 40}, "change": map[string]any{"kind": "margin", "value": "1"}}, "campaign_ids"},
	} {
		if r := p.do(http.MethodPost, "/api/seller/pricing/apply", p.token, tc.body); r.status != 422 || r.body.Errors[0].Field != tc.field {
			t.Errorf("%v: %d %s", tc.body, r.status, r.raw)
		}
	}

	// Applied: the 15.00 margin.
	change["change"] = map[string]any{"kind": "margin", "value": "15.00"}
	r = p.do(http.MethodPost, "/api/seller/pricing/apply", p.token, change)
	if r.status != 200 || r.body.Message != "New prices for 3 products of 2 campaigns are saved." {
		t.Fatalf("apply %d %s", r.status, r.raw)
	}
	if got := p.sizePrices(t, p.shirt); got["S"] != 2350 || got["2XL"] != 2550 {
		t.Errorf("shirt after the margin %v", got)
	}

	// Ten raises of 10 % at once on the hoodies all count: none is lost to another.
	raise := map[string]any{"store_id": p.store, "campaign_ids": []int64{p.hoodies}, "change": map[string]any{"kind": "percent", "value": "10"}}
	var wg sync.WaitGroup
	statuses := make([]int, 10)
	for i := range statuses {
		wg.Go(func() { statuses[i] = p.do(http.MethodPost, "/api/seller/pricing/apply", p.token, raise).status })
	}
	wg.Wait()
	want := map[string]int64{"S": 3300, "2XL": 3600}
	for size := range want {
		v := want[size]
		for range 10 {
			v = (v*11000 + 5000) / 10000
		}
		want[size] = v
	}
	if got := p.sizePrices(t, p.hood); got["S"] != want["S"] || got["2XL"] != want["2XL"] {
		t.Errorf("after 10 raises at once: %v, want %v (statuses %v)", got, want, statuses)
	}
}

// decode2 decodes a reply's whole body (a page) into v.
func decode2(t *testing.T, r reply, v any) {
	t.Helper()
	if err := json.Unmarshal(r.raw, v); err != nil {
		t.Fatalf("decode %s: %v", r.raw, err)
	}
}
