package app

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pressroom/pressroom/bff/crossselling"
)

type crossRule struct {
	ID       int64 `json:"id"`
	Campaign struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"campaign"`
	Targets []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"targets"`
	Orders int `json:"orders"`
}

type crossRuleList struct {
	Data  []crossRule `json:"data"`
	Total int         `json:"total"`
}

func (s *stack) crossRules(token string) (crossRuleList, reply) {
	s.t.Helper()
	r := s.do("GET", "/api/seller/cross-selling", token, nil)
	var l crossRuleList
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &l); err != nil {
			s.t.Fatalf("list %s: %v", r.raw, err)
		}
	}
	return l, r
}

func TestSellerCrossSelling(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	sellerID := s.userID("seller@example.com")
	// The campaign buy() sells, and two more campaigns of the seller.
	orderID, _ := s.buy("alice@example.com", "Alice", 1)
	var bought int64
	if err := s.app.DB.Get(&bought, `SELECT campaign_id FROM order_items WHERE order_id = $1`, orderID); err != nil {
		t.Fatal(err)
	}
	var others []int64
	if err := s.app.DB.Select(&others, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Dogs'), ($1, 'Birds') RETURNING id`, sellerID); err != nil {
		t.Fatal(err)
	}
	var foreign int64
	if err := s.app.DB.Get(&foreign, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'Not yours') RETURNING id`, s.userID("veteran@example.com")); err != nil {
		t.Fatal(err)
	}

	r := s.do("POST", "/api/seller/cross-selling", seller, map[string]any{"campaign_id": bought, "target_ids": []int64{others[1], others[0]}})
	if r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	var rule crossRule
	decode(t, r, &rule)
	if rule.Campaign.ID != bought || len(rule.Targets) != 2 || rule.Targets[0].ID != others[1] || rule.Targets[1].ID != others[0] || rule.Orders != 0 {
		t.Fatalf("rule: %s", r.raw)
	}

	bad := []struct {
		name  string
		body  map[string]any
		field string
		msg   string
	}{
		{"a campaign of another seller", map[string]any{"campaign_id": foreign, "target_ids": []int64{others[0]}}, "campaign_id", crossselling.MsgCampaign},
		{"no campaign", map[string]any{"target_ids": []int64{others[0]}}, "campaign_id", crossselling.MsgCampaign},
		{"no targets", map[string]any{"campaign_id": others[0], "target_ids": []int64{}}, "target_ids", crossselling.MsgTargets},
		{"a target of another seller", map[string]any{"campaign_id": others[0], "target_ids": []int64{foreign}}, "target_ids", crossselling.MsgTargets},
		{"itself", map[string]any{"campaign_id": others[0], "target_ids": []int64{others[0]}}, "target_ids", crossselling.MsgTargetIsSelf},
		{"twice the same", map[string]any{"campaign_id": others[0], "target_ids": []int64{bought, bought}}, "target_ids", crossselling.MsgTargetsRepeat},
		{"nine targets", map[string]any{"campaign_id": others[0], "target_ids": []int64{1, 2, 3, 4, 5, 6, 7, 8, 9}}, "target_ids", crossselling.MsgTargets},
		{"a second rule for the campaign", map[string]any{"campaign_id": bought, "target_ids": []int64{others[0]}}, "campaign_id", crossselling.MsgTaken},
	}
	for _, b := range bad {
		t.Run("refuses "+b.name, func(t *testing.T) {
			r := s.do("POST", "/api/seller/cross-selling", seller, b.body)
			if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != b.field || r.body.Message != b.msg {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}

	t.Run("orders produced: a buyer of the campaign ordering a suggested one afterwards", func(t *testing.T) {
		orderAs := func(status, email, when string, campaign int64) {
			var id int64
			if err := s.app.DB.Get(&id, `INSERT INTO orders (seller_id, number, email, status, created_at) VALUES ($1, $2, $3, $4, now() + $5::interval) RETURNING id`,
				sellerID, fmt.Sprintf("T-%s-%s-%d-%s", email, when, campaign, status), email, status, when); err != nil {
				t.Fatal(err)
			}
			if _, err := s.app.DB.Exec(`INSERT INTO order_items (order_id, campaign_id, product_name, quantity, unit_price) VALUES ($1, $2, 'Mug', 1, 1000)`, id, campaign); err != nil {
				t.Fatal(err)
			}
		}
		order := func(email, when string, campaign int64) { orderAs("pending", email, when, campaign) }
		order("ALICE@example.com", "1 minute", others[0]) // counts (any case)
		order("bob@example.com", "1 minute", others[0])   // bob never bought the campaign
		order("alice@example.com", "-1 day", others[1])   // before the rule existed
		order("alice@example.com", "2 minutes", bought)   // not a suggested campaign
		// carol bought the campaign and then a suggested one, both before the rule existed.
		order("carol@example.com", "-2 days", bought)
		order("carol@example.com", "-1 day", others[1])
		// alice's draft and her order still waiting for its payment are no purchase.
		orderAs("draft", "alice@example.com", "3 minutes", others[1])
		orderAs("pending_payment", "alice@example.com", "4 minutes", others[1])
		l, r := s.crossRules(seller)
		if r.status != 200 || l.Total != 1 || len(l.Data) != 1 || l.Data[0].Orders != 1 {
			t.Fatalf("list: %d %s", r.status, r.raw)
		}
	})

	path := fmt.Sprintf("/api/seller/cross-selling/%d", rule.ID)
	if r := s.do("PUT", path, seller, map[string]any{"campaign_id": bought, "target_ids": []int64{others[0]}}); r.status != 200 {
		t.Fatalf("update: %d %s", r.status, r.raw)
	} else if decode(t, r, &rule); len(rule.Targets) != 1 || rule.Targets[0].ID != others[0] {
		t.Fatalf("updated: %s", r.raw)
	}

	t.Run("another seller's rule is not found", func(t *testing.T) {
		other := s.login("seller", "veteran@example.com")
		for _, c := range []struct {
			method string
			body   any
		}{{"GET", nil}, {"PUT", map[string]any{"campaign_id": foreign, "target_ids": []int64{foreign + 1000000}}}, {"DELETE", nil}} {
			if r := s.do(c.method, path, other, c.body); r.status != 404 && !(c.method == "PUT" && r.status == 422) {
				t.Fatalf("%s: %d %s", c.method, r.status, r.raw)
			}
		}
		if _, err := s.app.DB.Exec(`INSERT INTO campaigns (user_id, name) VALUES ($1, 'Also not yours')`, s.userID("veteran@example.com")); err != nil {
			t.Fatal(err)
		}
		var second int64
		s.app.DB.Get(&second, `SELECT max(id) FROM campaigns WHERE user_id = $1`, s.userID("veteran@example.com"))
		if r := s.do("PUT", path, other, map[string]any{"campaign_id": foreign, "target_ids": []int64{second}}); r.status != 404 {
			t.Fatalf("valid update of another's rule: %d %s", r.status, r.raw)
		}
		if l, r := s.crossRules(other); r.status != 200 || l.Total != 0 {
			t.Fatalf("list: %d %s", r.status, r.raw)
		}
	})

	t.Run("without get_orders every call is refused", func(t *testing.T) {
		support := s.switchInto("support@example.com")
		for _, c := range [][2]string{{"GET", "/api/seller/cross-selling"}, {"POST", "/api/seller/cross-selling"}, {"GET", path}, {"PUT", path}, {"DELETE", path}} {
			if r := s.do(c[0], c[1], support, map[string]any{}); r.status != 403 {
				t.Fatalf("%s %s: %d %s", c[0], c[1], r.status, r.raw)
			}
		}
	})

	if r := s.do("DELETE", path, seller, nil); r.status != 200 {
		t.Fatalf("delete: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", path, seller, nil); r.status != 404 || r.body.Message != crossselling.MsgNotFound {
		t.Fatalf("after delete: %d %s", r.status, r.raw)
	}
}
