package orders

import (
	"context"
	"errors"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/platform/testinfra"
)

func seller(t *testing.T, db *sqlx.DB) int64 {
	t.Helper()
	var id int64
	if err := db.Get(&id, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestLifecycle creates an order, pays it, moves it and checks that each move wrote its event in the
// same transaction, that a refused move writes nothing, and that the derived statuses follow the
// payments, refunds and shipments.
func TestLifecycle(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	sellerID := seller(t, db)
	usd := func(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }

	tx := db.MustBeginTx(ctx, nil)
	c, items, err := Create(ctx, tx, New{SellerID: sellerID, Email: "b@example.com", Subtotal: usd(2000), Total: usd(2000),
		Items: []Item{{ProductName: "T-shirt", Color: "Black", Size: "M", Quantity: 1, UnitPrice: usd(2000)}}},
		PendingPayment, "test")
	if err != nil || len(items) != 1 {
		t.Fatalf("Create: %v %v", err, items)
	}
	if c.Number != "1001" {
		t.Errorf("first number %s", c.Number)
	}
	if _, err := Apply(ctx, tx, c.ID, ActionPay, "test", ""); !errors.Is(err, ErrRefused) {
		t.Fatalf("pay before any payment: %v", err)
	}
	tx.MustExec(`INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, 'test', 'pi_1', 'k1', 2000, 'USD', 'succeeded')`, c.ID)
	s, err := Refresh(ctx, tx, c.ID)
	if err != nil || s.PaymentStatus != PaymentPaid {
		t.Fatalf("Refresh after payment: %+v %v", s, err)
	}
	for _, a := range []Action{ActionPay, ActionProcess} {
		if _, err := Apply(ctx, tx, c.ID, a, "test", "note"); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	if _, err := Apply(ctx, tx, c.ID, ActionComplete, "test", ""); !errors.Is(err, ErrRefused) {
		t.Fatalf("complete before shipping: %v", err)
	}
	tx.MustExec(`INSERT INTO shipments (order_item_id, tracking) VALUES ($1, 'T1')`, items[0])
	if s, err = Refresh(ctx, tx, c.ID); err != nil || s.FulfillmentStatus != FulfillmentFulfilled {
		t.Fatalf("Refresh after shipping: %+v %v", s, err)
	}
	if to, err := Apply(ctx, tx, c.ID, ActionComplete, "test", ""); err != nil || to != Completed {
		t.Fatalf("complete: %s %v", to, err)
	}
	tx.MustExec(`INSERT INTO refunds (payment_id, amount) SELECT id, 500 FROM payments WHERE order_id = $1`, c.ID)
	if s, _ = Refresh(ctx, tx, c.ID); s.PaymentStatus != PaymentPartiallyRefunded {
		t.Errorf("after a part refund: %s", s.PaymentStatus)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	var events []struct {
		Action string `db:"action"`
		From   string `db:"from_status"`
		To     string `db:"to_status"`
	}
	if err := db.Select(&events, `SELECT action, from_status, to_status FROM order_events WHERE order_id = $1 ORDER BY id`, c.ID); err != nil {
		t.Fatal(err)
	}
	wantEvents := []string{"created:->pending_payment", "pay:pending_payment->pending", "process:pending->processing",
		"complete:processing->completed"}
	if len(events) != len(wantEvents) {
		t.Fatalf("events %+v", events)
	}
	for i, e := range events {
		if got := e.Action + ":" + e.From + "->" + e.To; got != wantEvents[i] {
			t.Errorf("event %d = %s, want %s", i, got, wantEvents[i])
		}
	}

	// A second order of the seller gets the next number.
	tx = db.MustBeginTx(ctx, nil)
	defer tx.Rollback()
	c2, _, err := Create(ctx, tx, New{SellerID: sellerID, Total: usd(0)}, Draft, "test")
	if err != nil || c2.Number != "1002" {
		t.Fatalf("second order %+v %v", c2, err)
	}
	if _, err := Apply(ctx, tx, 999999, ActionSubmit, "", ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown order: %v", err)
	}
}
