package app

import (
	"fmt"
	"testing"

	"github.com/pressroom/pressroom/bff/stock"
	commercestock "github.com/pressroom/pressroom/commerce/stock"
)

// TestStockStatus: only an admin changes the stock; sellers read it and see which of their own
// campaigns sell what is out of stock.
func TestStockStatus(t *testing.T) {
	e := newEditor(t)
	admin := e.login("admin", "admin@example.com")
	shirt := e.templates["T-shirt"]
	mine := e.create("Stock tee", "T-shirt")
	// Another seller's T-shirt campaign is never listed to this seller.
	var other int64
	if err := e.app.DB.Get(&other, `WITH u AS (INSERT INTO users (name, email, password_hash) VALUES ('O', 'o@example.com', 'x') RETURNING id),
c AS (INSERT INTO campaigns (user_id, name) SELECT id, 'Other tee' FROM u RETURNING id)
INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options)
SELECT c.id, t.id, t.name, t.product_type, t.print_spaces, t.options FROM c, product_templates t WHERE t.id = $1 RETURNING campaign_id`, shirt); err != nil {
		t.Fatal(err)
	}
	out := obj{"changes": []obj{{"template_id": shirt, "color": "Black", "size": "M", "in_stock": false},
		{"template_id": shirt, "color": "White", "size": "2XL", "in_stock": false}}}

	calls := []struct {
		name   string
		method string
		path   string
		token  string
		body   any
		status int
		field  string
		msg    string
	}{
		{"a seller cannot set", "PUT", "/api/admin/stock-status", e.token, out, 403, "", ""},
		{"a seller cannot read the history", "GET", "/api/admin/stock-status/history", e.token, nil, 403, "", ""},
		{"an unknown colour", "PUT", "/api/admin/stock-status", admin,
			obj{"changes": []obj{{"template_id": shirt, "color": "Black", "size": "M"}, {"template_id": shirt, "color": "Mauve", "size": "M"}}},
			422, "changes[1].color", commercestock.MsgColor},
		{"no changes", "PUT", "/api/admin/stock-status", admin, obj{"changes": []obj{}}, 422, "changes", commercestock.MsgNoChanges},
		{"a bad template filter", "GET", "/api/seller/stock-status?template_id=shirt", e.token, nil, 422, "template_id", stock.MsgTemplateID},
		{"the admin sets two at once", "PUT", "/api/admin/stock-status", admin, out, 200, "", stock.MsgSaved},
		{"setting them again changes nothing", "PUT", "/api/admin/stock-status", admin, out, 200, "", stock.MsgUnchanged},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(c.method, c.path, c.token, c.body)
			if r.status != c.status || (c.msg != "" && r.body.Message != c.msg) ||
				(c.field != "" && (len(r.body.Errors) != 1 || r.body.Errors[0].Field != c.field)) {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}

	var grid []commercestock.Row
	decode(t, e.do("GET", fmt.Sprintf("/api/seller/stock-status?out_of_stock=1&template_id=%d", shirt), e.token, nil), &grid)
	if len(grid) != 2 || grid[0].Color != "White" || grid[0].Size != "2XL" || grid[1].Color != "Black" || grid[1].Size != "M" || grid[0].InStock {
		t.Fatalf("seller's grid: %+v", grid)
	}
	var all []commercestock.Row
	decode(t, e.do("GET", "/api/admin/stock-status", admin, nil), &all)
	if len(all) <= len(grid) {
		t.Fatalf("admin's grid has %d rows", len(all))
	}
	var touched []stock.Touched
	decode(t, e.do("GET", "/api/seller/stock-status/campaigns", e.token, nil), &touched)
	found := false
	for _, p := range touched {
		if p.CampaignID == other {
			t.Fatalf("another seller's campaign listed: %+v", p)
		}
		if p.CampaignID == idOf(mine) {
			found = len(p.OutOfStock) == 2 && p.OutOfStock.Has("Black", "M") && p.OutOfStock.Has("White", "2XL")
		}
	}
	if !found {
		t.Fatalf("the seller's campaign is not listed as touched: %+v", touched)
	}
	var h []commercestock.Entry
	decode(t, e.do("GET", "/api/admin/stock-status/history", admin, nil), &h)
	if len(h) != 2 || h[0].ChangedBy == "" || h[0].TemplateName != "T-shirt" || h[0].InStock {
		t.Fatalf("history: %+v", h)
	}
}
