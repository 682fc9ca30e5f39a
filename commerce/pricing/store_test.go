package pricing_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/commerce/pricing"
	"github.com/pressroom/pressroom/platform/testinfra"
)

var ctx = context.Background()

// shop is a store selling a campaign with a T-shirt (8.50, 4.00 per extra print space, front and
// back designed) in the seeded sizes S to 2XL (2XL 2.00 more to make).
type shop struct {
	db                       *sqlx.DB
	store, campaign, product int64
	checkout                 *checkout.Service
	settings                 pricing.Settings
}

func newShop(t *testing.T) *shop {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	s := &shop{db: db}
	id := func(q string, args ...any) int64 {
		var v int64
		if err := db.Get(&v, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return v
	}
	seller := id(`INSERT INTO users (name, email, password_hash) VALUES ('S', 's@example.com', 'x') RETURNING id`)
	s.store = id(`INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'S', 's.example', 'shop') RETURNING id`, seller)
	s.campaign = id(`INSERT INTO campaigns (user_id, name) VALUES ($1, 'Tee') RETURNING id`, seller)
	tmpl := id(`INSERT INTO product_templates (name, product_type, print_spaces, options, base_cost, extra_print_cost)
VALUES ('T', 'tshirt', '[{"name":"front"},{"name":"back"}]', '{"colors":[{"name":"Black","hex":"#000000"}]}', 8.50, 4.00) RETURNING id`)
	s.product = id(`INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options, base_cost, extra_print_cost)
SELECT $1, id, name, product_type, print_spaces, options, base_cost, extra_print_cost FROM product_templates WHERE id = $2 RETURNING id`,
		s.campaign, tmpl)
	for _, space := range []string{"front", "back"} {
		db.MustExec(`INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json)
VALUES ($1, $2, $3, '{"objects":[{"type":"text"}]}')`, s.campaign, s.product, space)
	}
	gw, _ := payments.NewTest("test")
	var err error
	if s.checkout, err = checkout.New(checkout.Deps{DB: db, Gateway: gw}); err != nil {
		t.Fatal(err)
	}
	if s.settings, err = pricing.LoadSettings(ctx, db, money.USD); err != nil {
		t.Fatal(err)
	}
	return s
}

// write stores intent for the shop's T-shirt as Sell prices it.
func (s *shop) write(t *testing.T, in pricing.Intent) pricing.Quote {
	t.Helper()
	costs, err := pricing.Costs(ctx, s.db, money.USD, []int64{s.product})
	if err != nil {
		t.Fatal(err)
	}
	stored, q, err := pricing.Sell(costs[s.product], in, s.settings)
	if err != nil {
		t.Fatal(err)
	}
	tx := s.db.MustBegin()
	defer tx.Rollback()
	if err := pricing.Write(ctx, tx, s.store, money.USD, []pricing.Set{{ProductID: s.product, CampaignID: s.campaign, Stored: stored,
		CompareAt: q.CompareAt}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return q
}

// TestPricesAsBuyersSeeThem stores each mode through Write and reads it back three ways: Load (the
// seller's screens), checkout.Offers (the product page) and a cart, each size at the price its
// quote gave.
func TestPricesAsBuyersSeeThem(t *testing.T) {
	s := newShop(t)
	if s.settings != (pricing.Settings{Fees: pricing.Fees{BasisPoints: 400, Min: 50}, CompareRate: 2500}) {
		t.Fatalf("seeded settings %+v", s.settings)
	}
	cart := ""
	for _, size := range []string{"S", "2XL"} {
		var err error
		if cart, err = s.checkout.AddToCart(ctx, s.store, cart, checkout.AddItem{ProductID: s.product, Color: "Black", Size: size, Quantity: 1}); err == nil {
			t.Fatalf("added %s before the product was on sale", size)
		}
	}
	for _, tc := range []struct {
		name  string
		in    pricing.Intent
		sizes map[string]int64
	}{
		{"adjust", pricing.Intent{Mode: pricing.Adjust, Margin: 1149}, map[string]int64{"S": 1999, "M": 1999, "L": 1999, "XL": 1999, "2XL": 2199}},
		{"fixed", pricing.Intent{Mode: pricing.Fixed, Price: 2500}, map[string]int64{"S": 2500, "M": 2500, "L": 2500, "XL": 2500, "2XL": 2500}},
		{"custom", pricing.Intent{Mode: pricing.Custom, Sizes: map[string]int64{"S": 2100, "M": 2200, "L": 2300, "XL": 2400, "2XL": 2900}},
			map[string]int64{"S": 2100, "M": 2200, "L": 2300, "XL": 2400, "2XL": 2900}},
		{"adjust again, the custom sizes gone", pricing.Intent{Mode: pricing.Adjust, Margin: 1500}, map[string]int64{"S": 2350, "M": 2350, "L": 2350, "XL": 2350, "2XL": 2550}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := s.write(t, tc.in)
			quoted := map[string]int64{}
			for _, z := range q.Sizes {
				quoted[z.Size] = z.Price
			}
			if diff := cmp.Diff(tc.sizes, quoted); diff != "" {
				t.Errorf("quote (-want +got)\n%s", diff)
			}
			loaded, err := pricing.Load(ctx, s.db, s.store, money.USD, []int64{s.campaign}, false)
			if err != nil || len(loaded) != 1 {
				t.Fatalf("Load: %v %v", loaded, err)
			}
			if lq := pricing.QuoteOf(loaded[0].Cost, loaded[0].Stored, s.settings); !cmp.Equal(q, lq) {
				t.Errorf("loaded quote %+v, stored %+v", lq, q)
			}
			offers, err := checkout.Offers(ctx, s.db, s.store, s.campaign, 0)
			if err != nil || len(offers) != 1 {
				t.Fatalf("Offers: %v %v", offers, err)
			}
			shown := map[string]int64{}
			for _, z := range offers[0].Sizes {
				shown[z.Name] = z.Price.Amount
			}
			if diff := cmp.Diff(tc.sizes, shown); diff != "" {
				t.Errorf("product page (-want +got)\n%s", diff)
			}
			if want := q.CompareAt; offers[0].CompareAt == nil || offers[0].CompareAt.Amount != want || offers[0].Price.Amount != q.Price {
				t.Errorf("product page price %v, compare-at %v; want %d and %d", offers[0].Price, offers[0].CompareAt, q.Price, want)
			}
			if cart == "" {
				for _, size := range []string{"S", "2XL"} {
					if cart, err = s.checkout.AddToCart(ctx, s.store, cart, checkout.AddItem{ProductID: s.product, Color: "Black", Size: size, Quantity: 1}); err != nil {
						t.Fatal(err)
					}
				}
			}
			c, err := s.checkout.Cart(ctx, s.store, cart, money.USD)
			if err != nil || len(c.Lines) != 2 {
				t.Fatalf("cart %+v %v", c, err)
			}
			for _, l := range c.Lines {
				if l.UnitPrice.Amount != tc.sizes[l.Size] {
					t.Errorf("cart line %s at %v, want %d", l.Size, l.UnitPrice, tc.sizes[l.Size])
				}
			}
			if c.Subtotal.Amount != tc.sizes["S"]+tc.sizes["2XL"] {
				t.Errorf("subtotal %v", c.Subtotal)
			}
		})
	}
	var left int
	if err := s.db.Get(&left, `SELECT count(*) FROM store_product_sizes`); err != nil || left != 0 {
		t.Errorf("size prices left after leaving custom_price: %d %v", left, err)
	}
}

// TestWriteKeepsTheStatus: pricing a product on sale keeps its status; a new one goes on sale as
// given (active by default).
func TestWriteKeepsTheStatus(t *testing.T) {
	s := newShop(t)
	tx := s.db.MustBegin()
	set := pricing.Set{ProductID: s.product, CampaignID: s.campaign, Stored: pricing.Stored{Mode: pricing.Fixed, Price: 2000}}
	if err := pricing.Write(ctx, tx, s.store, money.USD, []pricing.Set{set}); err != nil {
		t.Fatal(err)
	}
	tx.MustExec(`UPDATE store_products SET status = 'inactive'`)
	set.Stored.Price = 2100
	if err := pricing.Write(ctx, tx, s.store, money.USD, []pricing.Set{set}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Status string `db:"status"`
		Price  int64  `db:"price"`
	}
	if err := tx.Get(&got, `SELECT status, price FROM store_products`); err != nil || got.Status != "inactive" || got.Price != 2100 {
		t.Errorf("re-priced: %+v %v", got, err)
	}
	set.Status = "active"
	if err := pricing.Write(ctx, tx, s.store, money.USD, []pricing.Set{set}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Get(&got, `SELECT status, price FROM store_products`); err != nil || got.Status != "active" {
		t.Errorf("put on sale: %+v %v", got, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var status string
	if err := s.db.Get(&status, `SELECT status FROM campaigns WHERE id = $1`, s.campaign); err != nil || status != "active" {
		t.Errorf("the campaign on sale is %q (%v), want active", status, err)
	}
}

// TestCosts reads a product's costs: the template's, its designed print spaces (a design without
// an object does not count) and its type's sizes.
func TestCosts(t *testing.T) {
	s := newShop(t)
	s.db.MustExec(`UPDATE campaign_designs SET design_json = '{"objects":[]}' WHERE print_space = 'back'`)
	costs, err := pricing.Costs(ctx, s.db, money.EUR, []int64{s.product, 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]pricing.Cost{s.product: {Currency: money.EUR, Base: 850, ExtraPrint: 400, Designed: 1,
		Sizes: []pricing.Size{{"S", 0}, {"M", 0}, {"L", 0}, {"XL", 0}, {"2XL", 200}}}}
	if diff := cmp.Diff(want, costs); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}
