package checkout

import (
	"context"
	"errors"
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
	db.MustExec(`INSERT INTO discount_codes (store_id, code, kind) VALUES ($1, 'FREESHIP', 'free')`, storeID)
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
// of the same intent arriving late: one order, one payment, still succeeded.
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
	intent, _ := s.gw.CreateIntent(ctx, payments.IntentRequest{IdempotencyKey: idempotencyKey(c), Amount: c.Totals.Total})
	db.MustExec(`INSERT INTO payments (checkout_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, 'test', $2, $3, 2000, 'USD', 'pending')`, c.ID, intent.ID, idempotencyKey(c))
	intent.Status = payments.StatusSucceeded
	var wg sync.WaitGroup
	applied := make([]bool, 5)
	for i := range applied {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := s.ApplyEvent(ctx, payments.Event{ID: "evt_1", Type: "payment_intent.succeeded", Intent: intent})
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
	if _, ok, err := s.ApplyEvent(ctx, payments.Event{ID: "evt_0", Type: "payment_intent.payment_failed", Intent: failed}); err != nil || !ok {
		t.Fatalf("late failed event: %v %v", ok, err)
	}
	var got struct{ Orders, Payments, Succeeded, Events int }
	db.QueryRow(`SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM payments),
		(SELECT count(*) FROM payments WHERE status = 'succeeded'), (SELECT count(*) FROM payment_events)`).
		Scan(&got.Orders, &got.Payments, &got.Succeeded, &got.Events)
	if n != 1 || got != (struct{ Orders, Payments, Succeeded, Events int }{1, 1, 1, 2}) {
		t.Errorf("applied %d times; %+v", n, got)
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
