package app

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pressroom/pressroom/bff/promotions"
	"github.com/pressroom/pressroom/bff/seed"
)

type promoList struct {
	Data []struct {
		ID     int64  `json:"id"`
		Code   string `json:"code"`
		Status string `json:"status"`
		Uses   int    `json:"uses"`
		Sales  []struct {
			Revenue  struct{ Amount int64 } `json:"revenue"`
			Discount struct{ Amount int64 } `json:"discount"`
		} `json:"sales"`
		Stores []struct{ Name string } `json:"stores"`
	} `json:"data"`
	Total int `json:"total"`
}

func (s *stack) promotions(token, q string) promoList {
	s.t.Helper()
	r := s.do("GET", "/api/promotions?q="+q, token, nil)
	var l promoList
	if r.status != 200 {
		s.t.Fatalf("list %d %s", r.status, r.raw)
	}
	if err := json.Unmarshal(r.raw, &l); err != nil {
		s.t.Fatalf("list %s: %v", r.raw, err)
	}
	return l
}

// TestSellerPromotions: the seller's codes are checked field by field, created, used by a buyer (the
// use and the sales show in the list, the campaign is on promotion), kept when used, disabled,
// enabled; another seller sees none of them.
func TestSellerPromotions(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	veteran := s.login("seller", "veteran@example.com")
	var store, foreignStore, foreignCampaign int64
	if err := s.app.DB.Get(&store, `SELECT id FROM stores WHERE slug = $1`, seed.DemoStoreSlug); err != nil {
		t.Fatal(err)
	}
	if err := s.app.DB.Get(&foreignStore, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Vic', 'vic.example', 'vic') RETURNING id`, s.userID("veteran@example.com")); err != nil {
		t.Fatal(err)
	}
	if err := s.app.DB.Get(&foreignCampaign, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Not yours') RETURNING id`, s.userID("veteran@example.com")); err != nil {
		t.Fatal(err)
	}
	good := func(change map[string]any) map[string]any {
		in := map[string]any{"code": "SPRING25", "kind": "discount_with_percent", "percent": 25, "applies_to": "stores",
			"store_ids": []int64{store}, "min_order": "10.00", "min_order_currency": "USD", "usage_limit": 5, "per_buyer_limit": 1}
		for k, v := range change {
			in[k] = v
		}
		return in
	}
	for _, tc := range []struct {
		name  string
		in    map[string]any
		field string
		msg   string
	}{
		{"short code", good(map[string]any{"code": "AB"}), "code", promotions.MsgCode},
		{"spaces in the code", good(map[string]any{"code": "SPRING 25"}), "code", promotions.MsgCode},
		{"unknown kind", good(map[string]any{"kind": "bogo"}), "kind", promotions.MsgKind},
		{"percent 0", good(map[string]any{"percent": 0}), "percent", promotions.MsgPercent},
		{"percent 101", good(map[string]any{"percent": 101}), "percent", promotions.MsgPercent},
		{"ends before it starts", good(map[string]any{"starts_at": "2026-12-01T00:00:00Z", "ends_at": "2026-11-01T00:00:00Z"}), "ends_at", promotions.MsgDates},
		{"limit 0", good(map[string]any{"usage_limit": 0}), "usage_limit", promotions.MsgLimit},
		{"per buyer -1", good(map[string]any{"per_buyer_limit": -1}), "per_buyer_limit", promotions.MsgLimit},
		{"minimum with 3 decimals", good(map[string]any{"min_order": "1.999"}), "min_order", promotions.MsgMinOrder},
		{"unknown currency", good(map[string]any{"min_order_currency": "XYZ"}), "min_order_currency", promotions.MsgCurrency},
		{"nowhere", good(map[string]any{"applies_to": "somewhere"}), "applies_to", promotions.MsgAppliesTo},
		{"no store", good(map[string]any{"store_ids": []int64{}}), "store_ids", promotions.MsgStores},
		{"another seller's store", good(map[string]any{"store_ids": []int64{store, foreignStore}}), "store_ids", promotions.MsgStores},
		{"another seller's campaign", good(map[string]any{"applies_to": "campaigns", "campaign_ids": []int64{foreignCampaign}}), "campaign_ids", promotions.MsgCampaigns},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do("POST", "/api/promotions", seller, tc.in)
			if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != tc.field || r.body.Errors[0].Message != tc.msg {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}
	r := s.do("POST", "/api/promotions", seller, good(nil))
	if r.status != 201 || r.body.Message != promotions.MsgCreated {
		t.Fatalf("create %d %s", r.status, r.raw)
	}
	id := int64(r.body.Data.(map[string]any)["id"].(float64))
	if r := s.do("POST", "/api/promotions", seller, good(map[string]any{"code": "spring25"})); r.status != 422 || r.body.Errors[0].Field != "code" || r.body.Message != promotions.MsgCodeTaken {
		t.Fatalf("same code in another case: %d %s", r.status, r.raw)
	}
	path := fmt.Sprintf("/api/promotions/%d", id)
	for _, m := range []string{"GET", "PUT", "DELETE"} {
		if r := s.do(m, path, veteran, good(nil)); r.status != 404 {
			t.Errorf("%s by another seller: %d %s", m, r.status, r.raw)
		}
	}
	if r := s.do("POST", path+"/disable", veteran, nil); r.status != 404 {
		t.Errorf("disable by another seller: %d", r.status)
	}
	if l := s.promotions(veteran, ""); len(l.Data) != 0 {
		t.Errorf("another seller lists %+v", l.Data)
	}

	// A buyer uses it: 25% off.
	shop, storeID, checkoutID := s.checkoutWithCode("buyer@example.com", "Bea Buyer", 2, "spring25")
	c, err := shop.Get(context.Background(), storeID, checkoutID)
	if err != nil || c.Totals.Discount.Amount != c.Totals.Subtotal.Percent(25).Amount || c.Totals.Discount.Amount == 0 {
		t.Fatalf("checkout %+v %v", c.Totals, err)
	}
	if _, err := shop.Pay(context.Background(), storeID, checkoutID); err != nil {
		t.Fatal(err)
	}
	l := s.promotions(seller, "spring")
	if len(l.Data) != 1 || l.Data[0].Uses != 1 || l.Data[0].Status != "active" || len(l.Data[0].Sales) != 1 ||
		l.Data[0].Sales[0].Revenue.Amount != c.Totals.Total.Amount || l.Data[0].Sales[0].Discount.Amount != c.Totals.Discount.Amount ||
		len(l.Data[0].Stores) != 1 {
		t.Fatalf("after a use: %+v", l)
	}
	r = s.do("GET", "/api/on-promotion", seller, nil)
	if r.status != 200 || len(r.body.Data.([]any)) == 0 {
		t.Fatalf("on promotion %d %s", r.status, r.raw)
	}
	if r := s.do("DELETE", path, seller, nil); r.status != 422 || r.body.Message != promotions.MsgUsed {
		t.Fatalf("delete used %d %s", r.status, r.raw)
	}
	if r := s.do("POST", path+"/disable", seller, nil); r.status != 200 || r.body.Data.(map[string]any)["status"] != "disabled" {
		t.Fatalf("disable %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/on-promotion", seller, nil); r.status != 200 || r.raw == nil {
		t.Fatalf("on promotion after disabling %d %s", r.status, r.raw)
	} else {
		for _, row := range r.body.Data.([]any) {
			for _, p := range row.(map[string]any)["promotions"].([]any) {
				if p.(map[string]any)["code"] == "SPRING25" {
					t.Errorf("a disabled code is on promotion: %s", r.raw)
				}
			}
		}
	}
	if r := s.do("POST", path+"/enable", seller, nil); r.status != 200 || r.body.Data.(map[string]any)["status"] != "active" {
		t.Fatalf("enable %d %s", r.status, r.raw)
	}
	// Edit, then an unused code is deleted.
	if r := s.do("PUT", path, seller, good(map[string]any{"percent": 30, "applies_to": "all"})); r.status != 200 || r.body.Data.(map[string]any)["percent"] != float64(30) {
		t.Fatalf("edit %d %s", r.status, r.raw)
	}
	r = s.do("POST", "/api/promotions", seller, good(map[string]any{"code": "UNUSED", "kind": "free"}))
	if r.status != 201 || r.body.Data.(map[string]any)["percent"] != float64(0) {
		t.Fatalf("create free shipping %d %s", r.status, r.raw)
	}
	unused := int64(r.body.Data.(map[string]any)["id"].(float64))
	if r := s.do("DELETE", fmt.Sprintf("/api/promotions/%d", unused), seller, nil); r.status != 200 {
		t.Fatalf("delete unused %d %s", r.status, r.raw)
	}
	if r := s.do("GET", fmt.Sprintf("/api/promotions/%d", unused), seller, nil); r.status != 404 {
		t.Fatalf("deleted still there: %d", r.status)
	}
}
