package checkout

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// newShop makes a store selling one T-shirt at 20.00 with a FREESHIP code, and answers the service, the
// store and the product.
func newShop(t *testing.T) (*Service, *sqlx.DB, int64, int64) {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	var seller, storeID, campaign, product int64
	db.MustExec(`INSERT INTO users (name, email, password_hash) VALUES ('S', 's@example.com', 'x')`)
	if err := db.Get(&seller, `SELECT id FROM users`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&storeID, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'S', 's.example', 'shop') RETURNING id`, seller); err != nil {
		t.Fatal(err)
	}
	db.MustExec(`INSERT INTO discount_codes (seller_id, code, kind) VALUES ($1, 'FREESHIP', 'free')`, seller)
	if err := db.Get(&campaign, `INSERT INTO campaigns (user_id, name) VALUES ($1, 'C') RETURNING id`, seller); err != nil {
		t.Fatal(err)
	}
	var tmpl int64
	if err := db.Get(&tmpl, `INSERT INTO product_templates (name, product_type, print_spaces, options) VALUES ('T', 'tshirt', '[]', '{"colors":[{"name":"Black","hex":"#000000"}]}') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&product, `INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, options)
		SELECT $1, id, name, product_type, print_spaces, options FROM product_templates WHERE id = $2 RETURNING id`, campaign, tmpl); err != nil {
		t.Fatal(err)
	}
	db.MustExec(`INSERT INTO store_products (store_id, product_id, campaign_id, price, currency) VALUES ($1, $2, $3, 2000, 'USD')`, storeID, product, campaign)
	gw, _ := payments.NewTest("test")
	s, err := New(Deps{DB: db, Gateway: gw})
	if err != nil {
		t.Fatal(err)
	}
	return s, db, storeID, product
}

func input() Input {
	return Input{Email: "b@example.com", Address: Address{Name: "B", Line1: "1 St", City: "Town", Country: "DE", PostalCode: "10115"}}
}

// TestEventsApplyOnce delivers the same succeeded event 5 times, concurrently, with a failed event
// of the same intent arriving late: one order, one payment, still succeeded, and one invoice.
func TestEventsApplyOnce(t *testing.T) {
	s, db, storeID, product := newShop(t)
	ctx := context.Background()
	cart, err := s.AddToCart(ctx, storeID, "", AddItem{ProductID: product, Color: "Black", Size: "M", Quantity: 1})
	if err != nil {
		t.Fatal(err)
	}
	in := input()
	in.DiscountCode = "freeship"
	c, err := s.Save(ctx, storeID, cart, in)
	if err != nil {
		t.Fatal(err)
	}
	// Europe: 4.99 * 1.40 = 6.98 shipping, taken off by FREESHIP.
	if c.Totals.Shipping.Amount != 698 || c.Totals.Discount.Amount != 698 || c.Totals.Total.Amount != 2000 {
		t.Fatalf("totals %+v", c.Totals)
	}
	// The buyer's tab asked for an intent (as Pay does) but the answer comes by webhook.
	gw, _ := s.GatewayFor(ctx, storeID)
	intent, _ := gw.CreateIntent(ctx, payments.IntentRequest{IdempotencyKey: idempotencyKey(c), Amount: c.Totals.Total})
	db.MustExec(`INSERT INTO payments (checkout_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, 'test', $2, $3, 2000, 'USD', 'pending')`, c.ID, intent.ID, idempotencyKey(c))
	intent.Status = payments.StatusSucceeded
	var wg sync.WaitGroup
	applied := make([]bool, 5)
	for i := range applied {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := s.ApplyEvent(ctx, gw, payments.Event{ID: "evt_1", Type: "payment_intent.succeeded", Intent: intent})
			if err != nil {
				t.Error(err)
			}
			applied[i] = ok
		}()
	}
	wg.Wait()
	n := 0
	for _, a := range applied {
		if a {
			n++
		}
	}
	failed := intent
	failed.Status = payments.StatusFailed
	if _, ok, err := s.ApplyEvent(ctx, gw, payments.Event{ID: "evt_0", Type: "payment_intent.payment_failed", Intent: failed}); err != nil || !ok {
		t.Fatalf("late failed event: %v %v", ok, err)
	}
	var got struct{ Orders, Payments, Succeeded, Events, Invoices int }
	db.QueryRow(`SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM payments),
		(SELECT count(*) FROM payments WHERE status = 'succeeded'), (SELECT count(*) FROM payment_events),
		(SELECT count(*) FROM invoices i JOIN orders o ON o.id = i.order_id WHERE i.number = 'INV-000001')`).
		Scan(&got.Orders, &got.Payments, &got.Succeeded, &got.Events, &got.Invoices)
	if n != 1 || got != (struct{ Orders, Payments, Succeeded, Events, Invoices int }{1, 1, 1, 2, 1}) {
		t.Errorf("applied %d times; %+v (want one order, its payment and its invoice INV-000001)", n, got)
	}
}

// TestDeclined: a declined payment leaves the checkout open and marks the payment failed.
func TestDeclined(t *testing.T) {
	s, db, storeID, product := newShop(t)
	ctx := context.Background()
	// 10.52 + 4.99 shipping to the US = 15.51: the test gateway declines totals ending in .51.
	db.MustExec(`UPDATE store_products SET price = 1052`)
	cart, err := s.AddToCart(ctx, storeID, "", AddItem{ProductID: product, Color: "Black", Size: "S", Quantity: 1})
	if err != nil {
		t.Fatal(err)
	}
	in := input()
	in.Address = Address{Name: "B", Line1: "1 St", City: "Town", Country: "US", State: "US-NY", PostalCode: "10001"}
	c, err := s.Save(ctx, storeID, cart, in)
	if err != nil {
		t.Fatal(err)
	}
	if c.Totals.Total.Amount%100 != 51 {
		t.Fatalf("total %v does not end in .51", c.Totals.Total)
	}
	if _, err := s.Pay(ctx, storeID, c.ID); !errors.Is(err, ErrPaymentFailed) {
		t.Fatalf("Pay: %v", err)
	}
	var status, checkout string
	db.Get(&status, `SELECT status FROM payments`)
	db.Get(&checkout, `SELECT status FROM checkouts`)
	if status != "failed" || checkout != "open" {
		t.Errorf("payment %s, checkout %s", status, checkout)
	}
	var orders int
	db.Get(&orders, `SELECT count(*) FROM orders`)
	if orders != 0 {
		t.Errorf("%d orders from a declined payment", orders)
	}

}

// TestDiscountCodeRules saves a checkout with codes of every kind of rule against the database: what
// each gives, or the message the buyer reads.
func TestDiscountCodeRules(t *testing.T) {
	s, db, storeID, product := newShop(t)
	ctx := context.Background()
	var seller, other, campaign int64
	db.Get(&seller, `SELECT owner_id FROM stores WHERE id = $1`, storeID)
	db.Get(&campaign, `SELECT campaign_id FROM store_products WHERE store_id = $1`, storeID)
	if err := db.Get(&other, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'O', 'o.example', 'other') RETURNING id`, seller); err != nil {
		t.Fatal(err)
	}
	db.MustExec(`INSERT INTO discount_codes (seller_id, code, kind, percent, starts_at, ends_at, min_order, min_order_currency, applies_to, disabled_at, per_buyer_limit) VALUES
		($1, 'TEN', 'discount_with_percent', 10, NULL, NULL, 0, 'USD', 'all', NULL, NULL),
		($1, 'OLD', 'discount_with_percent', 10, now() - interval '2 days', now() - interval '1 day', 0, 'USD', 'all', NULL, NULL),
		($1, 'SOON', 'discount_with_percent', 10, now() + interval '1 day', NULL, 0, 'USD', 'all', NULL, NULL),
		($1, 'BIG', 'discount_with_percent', 10, NULL, NULL, 5000, 'USD', 'all', NULL, NULL),
		($1, 'OFF', 'discount_with_percent', 10, NULL, NULL, 0, 'USD', 'all', now(), NULL),
		($1, 'ELSEWHERE', 'discount_with_percent', 10, NULL, NULL, 0, 'USD', 'stores', NULL, NULL),
		($1, 'HERE', 'discount_with_percent', 25, NULL, NULL, 0, 'USD', 'stores', NULL, NULL),
		($1, 'SHIRT', 'discount_with_percent', 50, NULL, NULL, 0, 'USD', 'campaigns', NULL, NULL),
		($1, 'ONCE', 'discount_with_percent', 10, NULL, NULL, 0, 'USD', 'all', NULL, 1)`, seller)
	db.MustExec(`INSERT INTO discount_code_stores (discount_code_id, store_id) SELECT id, $2 FROM discount_codes WHERE code = 'ELSEWHERE' AND seller_id = $1`, seller, other)
	db.MustExec(`INSERT INTO discount_code_stores (discount_code_id, store_id) SELECT id, $2 FROM discount_codes WHERE code = 'HERE' AND seller_id = $1`, seller, storeID)
	db.MustExec(`INSERT INTO discount_code_campaigns (discount_code_id, campaign_id) SELECT id, $2 FROM discount_codes WHERE code = 'SHIRT' AND seller_id = $1`, seller, campaign)
	// b@example.com used ONCE in an earlier paid checkout.
	var earlier string
	db.Get(&earlier, `INSERT INTO checkouts (id, store_id, email, address, lines, currency, subtotal, shipping, discount, tip, total, status)
		VALUES (gen_random_uuid(), $1, 'b@example.com', '{}', '[]', 'USD', 0, 0, 0, 0, 0, 'paid') RETURNING id`, storeID)
	var order int64
	db.Get(&order, `INSERT INTO orders (seller_id, store_id, number) VALUES ($1, $2, '1001') RETURNING id`, seller, storeID)
	db.MustExec(`INSERT INTO discount_code_uses (discount_code_id, checkout_id, email, order_id) SELECT id, $2, 'B@example.com', $3 FROM discount_codes WHERE code = 'ONCE' AND seller_id = $1`,
		seller, earlier, order)
	cart, err := s.AddToCart(ctx, storeID, "", AddItem{ProductID: product, Color: "Black", Size: "M", Quantity: 1})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		code     string
		discount int64
		msg      string
	}{
		{"ten", 200, ""},
		{"HERE", 500, ""},
		{"shirt", 1000, ""},
		{"FREESHIP", 698, ""},
		{"NOPE", 0, "This discount code does not exist. Check its spelling."},
		{"OLD", 0, "This discount code has expired."},
		{"SOON", 0, "This discount code is not valid yet."},
		{"BIG", 0, "This discount code needs an order of at least $50.00."},
		{"OFF", 0, "This discount code is no longer valid."},
		{"ELSEWHERE", 0, "This discount code is not valid in this store."},
		{"ONCE", 0, "You have already used this discount code."},
	}
	for _, tc := range cases {
		t.Run(tc.code, func(t *testing.T) {
			in := input()
			in.DiscountCode = tc.code
			c, err := s.Save(ctx, storeID, cart, in)
			if tc.msg != "" {
				var inv *InvalidError
				if !errors.As(err, &inv) || inv.Field("discount_code") != tc.msg {
					t.Fatalf("error %v, want %q", err, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Totals.Discount.Amount != tc.discount || c.Totals.Total.Amount != 2000+698-tc.discount {
				t.Fatalf("totals %+v, want a discount of %d", c.Totals, tc.discount)
			}
		})
	}
}

// TestSingleUseCodeConcurrently: 20 buyers pay at once with a code that may be used once. One
// order has the discount and one payment was taken; the 19 others are told the code is used up
// before any charge.
func TestSingleUseCodeConcurrently(t *testing.T) {
	s, db, storeID, product := newShop(t)
	ctx := context.Background()
	db.MustExec(`INSERT INTO discount_codes (seller_id, code, kind, percent, usage_limit) SELECT owner_id, 'ONLYONE', 'discount_with_percent', 20, 1 FROM stores WHERE id = $1`, storeID)
	const buyers = 20
	ids := make([]string, buyers)
	for i := range ids {
		cart, err := s.AddToCart(ctx, storeID, "", AddItem{ProductID: product, Color: "Black", Size: "M", Quantity: 1})
		if err != nil {
			t.Fatal(err)
		}
		in := input()
		in.Email = fmt.Sprintf("buyer%d@example.com", i)
		in.DiscountCode = "onlyone"
		c, err := s.Save(ctx, storeID, cart, in)
		if err != nil {
			t.Fatal(err)
		}
		if c.Totals.Discount.Amount != 400 {
			t.Fatalf("totals %+v", c.Totals)
		}
		ids[i] = c.ID
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	paid, usedUp := 0, 0
	start := make(chan struct{})
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := s.Pay(ctx, storeID, id)
			var inv *InvalidError
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				paid++
			case errors.As(err, &inv) && inv.Field("discount_code") == "This discount code has been used up.":
				usedUp++
			default:
				t.Error(err)
			}
		}()
	}
	close(start)
	wg.Wait()
	var got struct{ Orders, Discounted, Payments, Uses, Redeemed int }
	db.QueryRow(`SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM orders WHERE discount = 400),
		(SELECT count(*) FROM payments), (SELECT count(*) FROM discount_code_uses),
		(SELECT count(*) FROM discount_code_uses u JOIN orders o ON o.id = u.order_id)`).
		Scan(&got.Orders, &got.Discounted, &got.Payments, &got.Uses, &got.Redeemed)
	if paid != 1 || usedUp != buyers-1 || got != (struct{ Orders, Discounted, Payments, Uses, Redeemed int }{1, 1, 1, 1, 1}) {
		t.Errorf("paid %d, used up %d; %+v", paid, usedUp, got)
	}
}
