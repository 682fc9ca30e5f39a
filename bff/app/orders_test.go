package app

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/bff/orders"
	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/payments"
)

// checkout is a buyer's checkout in the demo store, saved with the address as a buyer does (a cart,
// then the checkout), not paid: the shop (on the test gateway), the store and the checkout's id.
func (s *stack) checkout(email, name string, qty int) (*checkout.Service, int64, string) {
	s.t.Helper()
	return s.checkoutWithCode(email, name, qty, "")
}

// checkoutWithCode is checkout with a discount code.
func (s *stack) checkoutWithCode(email, name string, qty int, code string) (*checkout.Service, int64, string) {
	s.t.Helper()
	gw, _ := payments.NewTest("test")
	shop, err := checkout.New(checkout.Deps{DB: s.app.DB, Gateway: gw})
	if err != nil {
		s.t.Fatal(err)
	}
	store, id := s.checkoutIn(shop, email, name, qty, code)
	return shop, store, id
}

// checkoutIn is checkoutWithCode in shop: it answers the store and the checkout's id.
func (s *stack) checkoutIn(shop *checkout.Service, email, name string, qty int, code string) (int64, string) {
	s.t.Helper()
	ctx := context.Background()
	var offer struct {
		Store    int64 `db:"store_id"`
		Campaign int64 `db:"campaign_id"`
		Product  int64 `db:"product_id"`
	}
	if err := s.app.DB.Get(&offer, `SELECT sp.store_id, sp.campaign_id, sp.product_id FROM store_products sp
		JOIN stores st ON st.id = sp.store_id JOIN campaign_products p ON p.id = sp.product_id
		WHERE st.slug = $1 AND NOT p.personalized ORDER BY sp.product_id LIMIT 1`, seed.DemoStoreSlug); err != nil {
		s.t.Fatal(err)
	}
	offers, err := checkout.Offers(ctx, s.app.DB, offer.Store, offer.Campaign, offer.Product)
	if err != nil || len(offers) == 0 || len(offers[0].Colors) == 0 || len(offers[0].Sizes) == 0 {
		s.t.Fatalf("offers: %v %+v", err, offers)
	}
	o := offers[0]
	cart, err := shop.AddToCart(ctx, offer.Store, "", checkout.AddItem{ProductID: o.ProductID, Color: o.Colors[0].Name,
		Size: o.Sizes[0].Name, Quantity: qty})
	if err != nil {
		s.t.Fatal(err)
	}
	c, err := shop.Save(ctx, offer.Store, cart, checkout.Input{Email: email, DiscountCode: code,
		Address: checkout.Address{Name: name, Line1: "1 Main St", City: "Berlin", Country: "DE", PostalCode: "10115"}})
	if err != nil {
		s.t.Fatal(err)
	}
	return offer.Store, c.ID
}

// buy places an order in the demo store as a buyer does: a checkout (above) paid through the test
// gateway. It answers the order's id and number.
func (s *stack) buy(email, name string, qty int) (int64, string) {
	s.t.Helper()
	shop, store, id := s.checkout(email, name, qty)
	res, err := shop.Pay(context.Background(), store, id)
	if err != nil {
		s.t.Fatal(err)
	}
	return res.OrderID, res.Number
}

// switchInto signs member in and switches into the demo seller's account.
func (s *stack) switchInto(member string) string {
	s.t.Helper()
	token := s.login("seller", member)
	return accessToken(s.t, s.do("POST", "/api/seller/switch-account", token, map[string]any{"seller_id": s.userID("seller@example.com")}))
}

type orderList struct {
	Data []struct {
		ID     int64  `json:"id"`
		Number string `json:"number"`
		Email  string `json:"email"`
		Status string `json:"status"`
	} `json:"data"`
	Total    int `json:"total"`
	LastPage int `json:"last_page"`
}

func (s *stack) orders(token, query string) (orderList, reply) {
	s.t.Helper()
	r := s.do("GET", "/api/seller/orders?"+query, token, nil)
	var l orderList
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &l); err != nil {
			s.t.Fatalf("list %s: %v", r.raw, err)
		}
	}
	return l, r
}

func TestSellerOrdersList(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	aID, aNum := s.buy("alice@example.com", "Alice Archer", 1)
	_, bNum := s.buy("bob@example.com", "Bob Baker", 2)
	s.buy("carol@example.com", "=Carol", 1)
	if r := s.do("POST", fmt.Sprintf("/api/seller/orders/%d/actions/hold", aID), seller, nil); r.status != 200 {
		t.Fatalf("hold: %d %s", r.status, r.raw)
	}
	var storeID int64
	if err := s.app.DB.Get(&storeID, `SELECT id FROM stores WHERE slug = $1`, seed.DemoStoreSlug); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		want        []string // numbers, newest first
	}{
		{"all, newest first", "", []string{"1003", "1002", "1001"}},
		{"status", "status=on_hold", []string{aNum}},
		{"status none", "status=cancelled", nil},
		{"payment status", "payment_status=paid", []string{"1003", "1002", "1001"}},
		{"payment status none", "payment_status=refunded", nil},
		{"fulfillment status", "fulfillment_status=unfulfilled", []string{"1003", "1002", "1001"}},
		{"fulfillment status none", "fulfillment_status=fulfilled", nil},
		{"order type", "order_type=regular", []string{"1003", "1002", "1001"}},
		{"order type none", "order_type=fba", nil},
		{"store", fmt.Sprintf("store_id=%d", storeID), []string{"1003", "1002", "1001"}},
		{"another store", fmt.Sprintf("store_id=%d", storeID+1000), nil},
		{"today", "date_range=today", []string{"1003", "1002", "1001"}},
		{"yesterday", "date_range=yesterday", nil},
		{"last month", "date_range=last_month", nil},
		{"custom from the far past", "date_range=custom&from=2000-01-01&to=2000-01-31", nil},
		{"search number", "q=" + bNum, []string{bNum}},
		{"search e-mail prefix, any case", "q=ALICE@exam", []string{aNum}},
		{"search name inside", "q=baker", []string{bNum}},
		{"search wildcard is literal", "q=%25", nil},
		{"filters combine", "status=on_hold&q=bob", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, r := s.orders(seller, tt.query)
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.raw)
			}
			var got []string
			for _, o := range l.Data {
				got = append(got, o.Number)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") || l.Total != len(tt.want) {
				t.Fatalf("got %v (total %d), want %v", got, l.Total, tt.want)
			}
		})
	}

	t.Run("paging", func(t *testing.T) {
		l, r := s.orders(seller, "per_page=2&page=2")
		if r.status != 200 || len(l.Data) != 1 || l.Data[0].Number != "1001" || l.Total != 3 || l.LastPage != 2 {
			t.Fatalf("page 2: %d %s", r.status, r.raw)
		}
		if l, _ := s.orders(seller, ""); len(l.Data) != 3 {
			t.Fatalf("default page: %+v", l)
		}
		if l, _ := s.orders(seller, "page=9"); len(l.Data) != 0 || l.Total != 3 {
			t.Fatalf("past the end: %+v", l)
		}
	})

	bad := []struct{ query, field string }{
		{"status=lost", "status"},
		{"payment_status=paid-ish", "payment_status"},
		{"fulfillment_status=shipped", "fulfillment_status"},
		{"order_type=ebay", "order_type"},
		{"store_id=-3", "store_id"},
		{"date_range=forever", "date_range"},
		{"from=2026-13-01", "from"},
		{"from=2026-02-02&to=2026-02-01", "to"},
		{"page=0", "page"},
		{"per_page=101", "per_page"},
	}
	for _, b := range bad {
		t.Run("refuses "+b.query, func(t *testing.T) {
			_, r := s.orders(seller, b.query)
			if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != b.field {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}

	t.Run("csv export of the filtered set", func(t *testing.T) {
		r := s.do("GET", "/api/seller/orders/export.csv?status=pending", seller, nil)
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") ||
			!strings.Contains(r.header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("%d %v %s", r.status, r.header, r.raw)
		}
		rows, err := csv.NewReader(strings.NewReader(string(r.raw))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 3 || rows[0][0] != "number" || rows[1][0] != "1003" || rows[2][0] != bNum {
			t.Fatalf("rows %q", rows)
		}
		// 1003 is "=Carol": a spreadsheet must not run it; bob bought two.
		if rows[1][5] != "'=Carol" || rows[2][4] != "bob@example.com" || rows[2][9] != "2" || rows[2][6] != "pending" {
			t.Fatalf("cells %q", rows)
		}
		if r := s.do("GET", "/api/seller/orders/export.csv?status=lost", seller, nil); r.status != 422 {
			t.Fatalf("bad filter: %d", r.status)
		}
	})

	t.Run("a team member with get_orders sees the account's orders", func(t *testing.T) {
		if l, r := s.orders(s.switchInto("team@example.com"), ""); r.status != 200 || l.Total != 3 {
			t.Fatalf("%d %s", r.status, r.raw)
		}
	})
}

type orderDetail struct {
	ID              int64          `json:"id"`
	Number          string         `json:"number"`
	InvoiceNumber   string         `json:"invoice_number"`
	Status          string         `json:"status"`
	PaymentStatus   string         `json:"payment_status"`
	Email           string         `json:"email"`
	ShippingAddress map[string]any `json:"shipping_address"`
	Items           []struct {
		ProductName string         `json:"product_name"`
		Color       string         `json:"color"`
		Size        string         `json:"size"`
		Quantity    int            `json:"quantity"`
		UnitPrice   map[string]any `json:"unit_price"`
		PrintFiles  []any          `json:"print_files"`
	} `json:"items"`
	Payments []struct {
		Status string `json:"status"`
		Amount struct {
			Amount int64 `json:"amount"`
		} `json:"amount"`
	} `json:"payments"`
	Events []struct {
		Action    string `json:"action"`
		To        string `json:"to_status"`
		ActorName string `json:"actor_name"`
		Note      string `json:"note"`
	} `json:"events"`
	AllowedActions []string `json:"allowed_actions"`
}

func (s *stack) order(token string, id int64) (orderDetail, reply) {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/seller/orders/%d", id), token, nil)
	var d orderDetail
	if r.status == 200 {
		decode(s.t, r, &d)
	}
	return d, r
}

func TestSellerOrderDetailAndActions(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	id, num := s.buy("dora@example.com", "Dora Diaz", 2)

	d, r := s.order(seller, id)
	if r.status != 200 || d.Number != num || d.Status != "pending" || d.PaymentStatus != "paid" || d.Email != "dora@example.com" ||
		d.ShippingAddress["city"] != "Berlin" || len(d.Items) != 1 || d.Items[0].Quantity != 2 || d.Items[0].Color == "" ||
		d.Items[0].UnitPrice["amount"].(float64) <= 0 || len(d.Payments) != 1 || d.Payments[0].Status != "succeeded" ||
		d.Items[0].PrintFiles == nil {
		t.Fatalf("detail: %d %s", r.status, r.raw)
	}
	if len(d.Events) != 2 || d.Events[0].Action != "created" || d.Events[1].Action != "pay" {
		t.Fatalf("timeline: %s", r.raw)
	}
	if strings.Join(d.AllowedActions, ",") != "hold,cancel,ship,refund,update_address" {
		t.Fatalf("allowed from pending: %v", d.AllowedActions)
	}

	steps := []struct {
		action     string
		wantStatus int
		wantOrder  string
		allowed    string
	}{
		{"archive", 409, "pending", ""},
		{"release", 409, "pending", ""},
		{"hold", 200, "on_hold", "release,cancel,refund,update_address"},
		{"hold", 409, "on_hold", ""},
		{"release", 200, "pending", "hold,cancel,ship,refund,update_address"},
		{"cancel", 200, "cancelled", "refund,archive"},
		{"release", 409, "cancelled", ""},
		{"hold", 409, "cancelled", ""},
		{"archive", 200, "archived", ""},
		{"cancel", 409, "archived", ""},
	}
	for i, st := range steps {
		r := s.do("POST", fmt.Sprintf("/api/seller/orders/%d/actions/%s", id, st.action), seller, map[string]string{"note": "step " + st.action})
		if r.status != st.wantStatus {
			t.Fatalf("step %d %s: %d %s", i, st.action, r.status, r.raw)
		}
		if st.wantStatus == 409 && !strings.Contains(r.body.Message, st.action) {
			t.Fatalf("step %d %s: the refusal says why: %q", i, st.action, r.body.Message)
		}
		d, _ := s.order(seller, id)
		if d.Status != st.wantOrder {
			t.Fatalf("step %d %s: status %s, want %s", i, st.action, d.Status, st.wantOrder)
		}
		if st.wantStatus == 200 && strings.Join(d.AllowedActions, ",") != st.allowed {
			t.Fatalf("step %d %s: allowed %v, want %s", i, st.action, d.AllowedActions, st.allowed)
		}
	}
	d, _ = s.order(seller, id)
	var moves []string
	for _, e := range d.Events[2:] {
		moves = append(moves, e.Action+">"+e.To)
		if e.ActorName != "Sam Seller" || e.Note != "step "+e.Action {
			t.Fatalf("event who/note: %+v", e)
		}
	}
	if strings.Join(moves, " ") != "hold>on_hold release>pending cancel>cancelled archive>archived" {
		t.Fatalf("timeline %v", moves)
	}

	if r := s.do("POST", fmt.Sprintf("/api/seller/orders/%d/actions/pay", id), seller, nil); r.status != 422 || r.body.Message != orders.MsgBadAction {
		t.Fatalf("platform action: %d %s", r.status, r.raw)
	}

	t.Run("five cancels at once: one wins", func(t *testing.T) {
		id, _ := s.buy("eve@example.com", "Eve", 1)
		codes := map[int]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range 5 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := s.do("POST", fmt.Sprintf("/api/seller/orders/%d/actions/cancel", id), seller, nil)
				mu.Lock()
				codes[r.status]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		var events int
		s.app.DB.Get(&events, `SELECT count(*) FROM order_events WHERE order_id = $1 AND action = 'cancel'`, id)
		if codes[200] != 1 || codes[409] != 4 || events != 1 {
			t.Fatalf("answers %v, cancel events %d", codes, events)
		}
	})

	t.Run("cancel and hold at once: the second is judged on the first", func(t *testing.T) {
		id, _ := s.buy("finn@example.com", "Finn", 1)
		codes := map[string]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, a := range []string{"cancel", "hold"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := s.do("POST", fmt.Sprintf("/api/seller/orders/%d/actions/%s", id, a), seller, nil)
				mu.Lock()
				codes[a] = r.status
				mu.Unlock()
			}()
		}
		wg.Wait()
		d, _ := s.order(seller, id)
		var moves []string
		for _, e := range d.Events[2:] {
			moves = append(moves, e.Action)
		}
		// Either cancel came first (hold is then refused) or hold did (and cancel from on_hold is allowed).
		ok := (codes["cancel"] == 200 && codes["hold"] == 409 && strings.Join(moves, ",") == "cancel") ||
			(codes["cancel"] == 200 && codes["hold"] == 200 && strings.Join(moves, ",") == "hold,cancel")
		if !ok || d.Status != "cancelled" {
			t.Fatalf("answers %v, moves %v, status %s", codes, moves, d.Status)
		}
	})

	t.Run("another seller's order is not found", func(t *testing.T) {
		other := s.login("seller", "veteran@example.com")
		if _, r := s.order(other, id); r.status != 404 || r.body.Message != orders.MsgOrderNotFound {
			t.Fatalf("get: %d %s", r.status, r.raw)
		}
		if r := s.do("POST", fmt.Sprintf("/api/seller/orders/%d/actions/hold", id), other, nil); r.status != 404 {
			t.Fatalf("action: %d %s", r.status, r.raw)
		}
		if l, _ := s.orders(other, ""); l.Total != 0 {
			t.Fatalf("list: %+v", l)
		}
		for _, p := range []string{"/api/seller/orders/0", "/api/seller/orders/abc", "/api/seller/orders/99999999"} {
			if r := s.do("GET", p, seller, nil); r.status != 404 {
				t.Fatalf("%s: %d", p, r.status)
			}
		}
	})

	t.Run("without get_orders every orders call is refused", func(t *testing.T) {
		support := s.switchInto("support@example.com")
		for _, c := range [][2]string{
			{"GET", "/api/seller/orders"},
			{"GET", "/api/seller/orders/export.csv"},
			{"GET", fmt.Sprintf("/api/seller/orders/%d", id)},
			{"POST", fmt.Sprintf("/api/seller/orders/%d/actions/hold", id)},
		} {
			if r := s.do(c[0], c[1], support, nil); r.status != 403 {
				t.Fatalf("%s %s: %d %s", c[0], c[1], r.status, r.raw)
			}
		}
	})
}
