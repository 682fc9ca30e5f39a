package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/bff/reports"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

type overviewFigure struct {
	Value    json.RawMessage `json:"value"`
	Previous json.RawMessage `json:"previous"`
}

type overviewSlice struct {
	Key    string `json:"key"`
	Label  string `json:"label"`
	Orders int64  `json:"orders"`
	Sales  int64  `json:"sales"`
	Visits int64  `json:"visits"`
}

type overviewData struct {
	Currency   string                    `json:"currency"`
	Currencies []string                  `json:"currencies"`
	Figures    map[string]overviewFigure `json:"figures"`
	Days       []overviewSlice           `json:"days"`
	Countries  []overviewSlice           `json:"countries"`
	Stores     []overviewSlice           `json:"stores"`
	Devices    []overviewSlice           `json:"devices"`
	Payments   []overviewSlice           `json:"payment_methods"`
	Campaigns  []struct {
		ID     int64  `json:"id"`
		Name   string `json:"name"`
		Orders int64  `json:"orders"`
		Items  int64  `json:"items"`
		Sales  int64  `json:"sales"`
	} `json:"top_campaigns"`
}

func (s *stack) overview(token, query string) (overviewData, reply) {
	s.t.Helper()
	r := s.do("GET", "/api/seller/reports/overview?"+query, token, nil)
	var out struct {
		Data overviewData `json:"data"`
	}
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &out); err != nil {
			s.t.Fatalf("overview %s: %v", r.raw, err)
		}
	}
	return out.Data, r
}

// figure reads a card as "value/previous", money by its amount.
func (d overviewData) figure(name string) string {
	f := d.Figures[name]
	read := func(raw json.RawMessage) string {
		var m struct{ Amount int64 }
		if json.Unmarshal(raw, &m) == nil {
			return fmt.Sprint(m.Amount)
		}
		return string(raw)
	}
	return read(f.Value) + "/" + read(f.Previous)
}

// TestOverview: the Dashboard overview adds up the seller's placed orders of the range beside
// those of the period just before (as long); another seller's orders and visits, orders still
// waiting for their payment and orders outside both periods do not count; the charts break the
// range's orders down; bad filters are named; get_reports is required.
func TestOverview(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	sellerID, veteranID := s.userID("seller@example.com"), s.userID("veteran@example.com")
	var demo, theirs int64
	s.app.DB.Get(&demo, `SELECT id FROM stores WHERE slug = 'demo'`)
	if err := s.app.DB.Get(&theirs, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Vic', 'vic.example', 'vic') RETURNING id`, veteranID); err != nil {
		t.Fatal(err)
	}

	a, _ := s.buy("alice@example.com", "Alice Archer", 1)
	b, _ := s.buy("bob@example.com", "Bob Baker", 2)
	old, _ := s.buy("carol@example.com", "Carol", 3)
	older, _ := s.buy("dave@example.com", "Dave", 1)
	s.app.DB.MustExec(`UPDATE orders SET created_at = now() - interval '10 days' WHERE id = $1`, old)   // the previous 7 days
	s.app.DB.MustExec(`UPDATE orders SET created_at = now() - interval '40 days' WHERE id = $1`, older) // before both
	s.app.DB.MustExec(`UPDATE checkouts SET device = 'mobile' WHERE order_id = $1`, b)
	s.app.DB.MustExec(`INSERT INTO orders (seller_id, store_id, number, email, status, total) VALUES ($1, $2, 'W-1', 'w@example.com', 'pending_payment', 9999)`, sellerID, demo)
	s.app.DB.MustExec(`INSERT INTO orders (seller_id, store_id, number, email, status, total) VALUES ($1, $2, 'V-1', 'v@example.com', 'processing', 7777)`, veteranID, theirs)
	hour := time.Now().UTC().Truncate(time.Hour)
	for _, v := range []struct {
		store  int64
		at     time.Time
		device string
		visits int
	}{{demo, hour, "mobile", 3}, {demo, hour, "desktop", 2}, {demo, hour.AddDate(0, 0, -10), "desktop", 4}, {theirs, hour, "desktop", 100}} {
		s.app.DB.MustExec(`INSERT INTO store_visits (store_id, hour, device, visits) VALUES ($1, $2, $3, $4)`, v.store, v.at, v.device, v.visits)
	}

	total := func(ids ...int64) (n int64) {
		for _, id := range ids {
			var v int64
			s.app.DB.Get(&v, `SELECT total FROM orders WHERE id = $1`, id)
			n += v
		}
		return n
	}
	earned := func(ids ...int64) (n int64) {
		for _, id := range ids {
			var v int64
			s.app.DB.Get(&v, `SELECT coalesce(sum(d_held + d_available - d_owed), 0) FROM ledger_entries WHERE order_id = $1`, id)
			n += v
		}
		return n
	}
	if earned(a) <= 0 || earned(a) >= total(a) {
		t.Fatalf("earnings of order %d = %d of %d: the sale was not booked", a, earned(a), total(a))
	}

	d, r := s.overview(seller, "date_range=last_7_days")
	if r.status != 200 {
		t.Fatalf("overview: %d %s", r.status, r.raw)
	}
	figures := map[string]string{}
	for _, name := range []string{"sales", "orders", "items", "average_order_value", "earnings", "visits"} {
		figures[name] = d.figure(name)
	}
	sales, prevSales := total(a, b), total(old)
	want := map[string]string{
		"sales":               fmt.Sprintf("%d/%d", sales, prevSales),
		"orders":              "2/1",
		"items":               "3/3",
		"average_order_value": fmt.Sprintf("%d/%d", (sales+1)/2, prevSales),
		"earnings":            fmt.Sprintf("%d/%d", earned(a, b), earned(old)),
		"visits":              "5/4",
	}
	if diff := cmp.Diff(want, figures); diff != "" {
		t.Errorf("figures (-want +got):\n%s", diff)
	}
	if d.Currency != "USD" || len(d.Currencies) != 1 {
		t.Errorf("currency %q of %v", d.Currency, d.Currencies)
	}
	if len(d.Days) != 7 || d.Days[6].Sales != sales || d.Days[6].Orders != 2 || d.Days[0].Sales != 0 {
		t.Errorf("days = %+v", d.Days)
	}
	wantSlices := map[string][]overviewSlice{
		"countries": {{Key: "DE", Label: "Germany", Orders: 2, Sales: sales}},
		"stores":    {{Key: fmt.Sprint(demo), Label: "Demo Store", Orders: 2, Sales: sales}},
		"payments":  {{Key: "test", Label: "Test mode", Orders: 2, Sales: sales}},
		"devices": {{Key: "mobile", Label: "Mobile", Orders: 1, Sales: total(b), Visits: 3},
			{Key: "", Label: "Unknown", Orders: 1, Sales: total(a)}, {Key: "desktop", Label: "Desktop", Visits: 2}},
	}
	gotSlices := map[string][]overviewSlice{"countries": d.Countries, "stores": d.Stores, "payments": d.Payments, "devices": d.Devices}
	var storeName string
	s.app.DB.Get(&storeName, `SELECT name FROM stores WHERE id = $1`, demo)
	wantSlices["stores"][0].Label = storeName
	if diff := cmp.Diff(wantSlices, gotSlices); diff != "" {
		t.Errorf("breakdowns (-want +got):\n%s", diff)
	}
	if len(d.Campaigns) != 1 || d.Campaigns[0].Orders != 2 || d.Campaigns[0].Items != 3 || d.Campaigns[0].Name == "" {
		t.Errorf("top campaigns = %+v", d.Campaigns)
	}

	t.Run("narrowed to a store", func(t *testing.T) {
		second := int64(0)
		if err := s.app.DB.Get(&second, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Second', 'second.example', 'second') RETURNING id`, sellerID); err != nil {
			t.Fatal(err)
		}
		d, r := s.overview(seller, fmt.Sprintf("date_range=last_7_days&store_id=%d", second))
		if r.status != 200 || d.figure("orders") != "0/0" || d.figure("visits") != "0/0" || d.figure("sales") != "0/0" {
			t.Errorf("second store: %d %v", r.status, d.Figures)
		}
	})

	t.Run("an empty range", func(t *testing.T) {
		d, r := s.overview(seller, "date_range=custom&from=2001-01-01&to=2001-01-31")
		if r.status != 200 || d.figure("orders") != "0/0" || len(d.Days) != 31 || d.Currency != "USD" || len(d.Currencies) != 0 {
			t.Errorf("2001: %d %+v", r.status, d)
		}
	})

	bad := []struct {
		name, query, field, message string
	}{
		{"unknown preset", "date_range=forever", "date_range", listing.MsgBadPreset},
		{"no range", "", "date_range", reports.MsgOpen},
		{"open end", "date_range=custom&from=2026-01-01", "to", reports.MsgOpen},
		{"from after to", "from=2026-02-01&to=2026-01-01", "to", listing.MsgBadRange},
		{"bad date", "from=yesterday&to=2026-01-01", "from", listing.MsgBadDate},
		{"too long", "from=2020-01-01&to=2026-01-01", "to", reports.MsgTooLong},
		{"bad store id", "date_range=today&store_id=abc", "store_id", reports.MsgStore},
		{"another seller's store", fmt.Sprintf("date_range=today&store_id=%d", theirs), "store_id", reports.MsgStore},
		{"unknown currency", "date_range=today&currency=XYZ", "currency", reports.MsgCurrency},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, r := s.overview(seller, tc.query)
			if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != tc.field || r.body.Errors[0].Message != tc.message {
				t.Errorf("%d %s, want 422 on %s: %s", r.status, r.raw, tc.field, tc.message)
			}
		})
	}

	access := []struct {
		name  string
		token func() string
		want  int
	}{
		{"a member with get_reports", func() string { return s.switchInto("team@example.com") }, 200},
		{"a member without get_reports", func() string { return s.switchInto("support@example.com") }, 403},
		{"signed out", func() string { return "" }, 401},
	}
	for _, tc := range access {
		t.Run(tc.name, func(t *testing.T) {
			if _, r := s.overview(tc.token(), "date_range=today"); r.status != tc.want {
				t.Errorf("status %d, want %d: %s", r.status, tc.want, r.raw)
			}
		})
	}
}

type marginRow struct {
	ProductID int64  `json:"product_id"`
	Product   string `json:"product"`
	Campaign  string `json:"campaign"`
	Units     int64  `json:"units"`
	Sales     struct{ Amount int64 }
	BaseCost  struct{ Amount int64 } `json:"base_cost"`
	Extra     struct{ Amount int64 } `json:"extra_print_cost"`
	Fees      struct{ Amount int64 }
	Margin    struct{ Amount int64 }
}

// TestOverviewMargins: the margin per product adds up the units sold over the range at their
// prices, less each unit's base cost (with its size), extra print cost and processing fee as the
// Pricing screen prices them; orders outside the range and other sellers' do not count.
func TestOverviewMargins(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	a, _ := s.buy("alice@example.com", "Alice Archer", 1)
	s.buy("bob@example.com", "Bob Baker", 2)
	old, _ := s.buy("carol@example.com", "Carol", 3)
	s.app.DB.MustExec(`UPDATE orders SET created_at = now() - interval '10 days' WHERE id = $1`, old)
	var line struct {
		Product int64  `db:"product_id"`
		Size    string `db:"size"`
		Price   int64  `db:"unit_price"`
	}
	if err := s.app.DB.Get(&line, `SELECT product_id, size, unit_price FROM order_items WHERE order_id = $1`, a); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	costs, err := pricing.Costs(ctx, s.app.DB, money.USD, []int64{line.Product})
	if err != nil {
		t.Fatal(err)
	}
	fees, err := pricing.LoadFees(ctx, s.app.DB, money.USD)
	if err != nil {
		t.Fatal(err)
	}
	c := costs[line.Product]
	base, extra, fee := c.BaseOf(c.Size(line.Size))*3, pricing.ExtraPrintCost(c.ExtraPrint, c.Designed)*3, fees.On(line.Price)*3
	if base == 0 || fee == 0 {
		t.Fatalf("the demo product costs nothing: base %d, fee %d", base, fee)
	}

	r := s.do("GET", "/api/seller/reports/margins?date_range=last_7_days", seller, nil)
	var out struct {
		Data struct {
			Currency string      `json:"currency"`
			Products []marginRow `json:"products"`
		} `json:"data"`
	}
	if r.status != 200 || json.Unmarshal(r.raw, &out) != nil || len(out.Data.Products) != 1 {
		t.Fatalf("margins: %d %s", r.status, r.raw)
	}
	got := out.Data.Products[0]
	sales := line.Price * 3
	if got.ProductID != line.Product || got.Units != 3 || got.Sales.Amount != sales || got.BaseCost.Amount != base ||
		got.Extra.Amount != extra || got.Fees.Amount != fee || got.Margin.Amount != sales-base-extra-fee || got.Campaign == "" {
		t.Errorf("margin %+v, want 3 units, sales %d, base %d, extra %d, fees %d", got, sales, base, extra, fee)
	}

	for _, tc := range []struct {
		name, token, query string
		want               int
	}{
		{"unknown preset", seller, "date_range=forever", 422},
		{"a member without get_reports", s.switchInto("support@example.com"), "date_range=today", 403},
		{"another seller sells nothing", s.login("seller", "veteran@example.com"), "date_range=last_7_days", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do("GET", "/api/seller/reports/margins?"+tc.query, tc.token, nil)
			if r.status != tc.want || (tc.want == 200 && !strings.Contains(string(r.raw), `"products":[]`)) {
				t.Errorf("%d %s, want %d", r.status, r.raw, tc.want)
			}
		})
	}
}
