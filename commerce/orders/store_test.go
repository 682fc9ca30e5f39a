package orders

import (
	"context"
	"errors"
	"strconv"
	"strings"
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

// TestShipForwardOnly ships one item then the other, sends the same tracking again, a late older
// update, and delivery: the order moves pending → processing → completed, never back; the same
// tracking again writes nothing; each change writes its events to the outbox.
func TestShipForwardOnly(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	sellerID := seller(t, db)
	usd := func(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }
	tx := db.MustBeginTx(ctx, nil)
	defer tx.Rollback()
	c, items, err := Create(ctx, tx, New{SellerID: sellerID, Email: "b@example.com", Subtotal: usd(3000), Total: usd(3000),
		Items: []Item{{ProductName: "Mug", Quantity: 1, UnitPrice: usd(1000)}, {ProductName: "Tee", Quantity: 1, UnitPrice: usd(2000)}}},
		PendingPayment, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Ship(ctx, tx, c.ID, Parcel{Carrier: "DHL", Tracking: "T0"}, "test"); !errors.Is(err, ErrRefused) {
		t.Fatalf("ship before payment: %v", err)
	}
	tx.MustExec(`INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, 'test', 'pi_s', 'ks', 3000, 'USD', 'succeeded')`, c.ID)
	if _, err := Refresh(ctx, tx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ctx, tx, c.ID, ActionPay, "test", ""); err != nil {
		t.Fatal(err)
	}
	count := func(q string) int {
		var n int
		if err := tx.Get(&n, q, c.ID); err != nil {
			t.Fatal(err)
		}
		return n
	}
	tracking := `SELECT count(*) FROM event_outbox WHERE order_id = $1 AND event_type = 'order.tracking_changed'`

	if _, err := Ship(ctx, tx, c.ID, Parcel{Carrier: "DHL", Tracking: "T1", ItemIDs: []int64{items[0], 999999}}, "test"); !errors.Is(err, ErrNotItems) {
		t.Fatalf("another order's item: %v", err)
	}
	sh, err := Ship(ctx, tx, c.ID, Parcel{Carrier: "DHL", Tracking: "T1", TrackingURL: "https://dhl.example/T1", ItemIDs: items[:1]}, "test")
	if err != nil || !sh.Changed || sh.Status != Processing {
		t.Fatalf("first parcel: %+v %v", sh, err)
	}
	if s, _ := Load(ctx, tx, c.ID); s.FulfillmentStatus != FulfillmentPartial {
		t.Fatalf("after one of two items: %+v", s)
	}
	if sh, err := Ship(ctx, tx, c.ID, Parcel{Carrier: "DHL", Tracking: "T1", TrackingURL: "https://dhl.example/T1", ItemIDs: items[:1]}, "test"); err != nil || sh.Changed {
		t.Fatalf("the same tracking again: %+v %v", sh, err)
	}
	if n := count(tracking); n != 1 {
		t.Fatalf("%d tracking events after the repeat, want 1", n)
	}
	mails := `SELECT count(*) FROM task_outbox WHERE task_type = 'orders:shipping-mail'
		AND convert_from(payload, 'UTF8')::jsonb->>'order_id' = $1::text`
	if n := count(mails); n != 1 {
		t.Fatalf("%d shipping mails queued after the repeat, want 1", n)
	}
	if _, err := Apply(ctx, tx, c.ID, ActionCancel, "test", ""); !errors.Is(err, ErrRefused) {
		t.Fatalf("cancel after shipping: %v", err)
	}
	sh, err = Ship(ctx, tx, c.ID, Parcel{Carrier: "UPS", Tracking: "U2", ItemIDs: items[1:]}, "test")
	if err != nil || sh.Status != Completed {
		t.Fatalf("second parcel: %+v %v", sh, err)
	}
	if sh, err := Deliver(ctx, tx, c.ID, nil, "test"); err != nil || !sh.Changed || len(sh.Items) != 2 {
		t.Fatalf("deliver: %+v %v", sh, err)
	}
	if sh, err := Deliver(ctx, tx, c.ID, nil, "test"); err != nil || sh.Changed {
		t.Fatalf("deliver again: %+v %v", sh, err)
	}
	// A late update with other tracking for a delivered item: the tracking changes, nothing goes back.
	if sh, err := Ship(ctx, tx, c.ID, Parcel{Carrier: "DHL", Tracking: "T1-late", ItemIDs: items[:1]}, "test"); err != nil || sh.Status != Completed {
		t.Fatalf("late update: %+v %v", sh, err)
	}
	s, _ := Load(ctx, tx, c.ID)
	if s.Status != Completed || s.FulfillmentStatus != FulfillmentFulfilled {
		t.Fatalf("after the late update: %+v", s)
	}
	// T1, U2 and T1-late: three numbers, three mails.
	if n := count(mails); n != 3 {
		t.Fatalf("%d shipping mails queued, want 3", n)
	}
	if n := count(`SELECT count(*) FROM shipments sh JOIN order_items i ON i.id = sh.order_item_id
		WHERE i.order_id = $1 AND sh.delivered_at IS NOT NULL`); n != 2 {
		t.Fatalf("%d delivered shipments, want 2", n)
	}
	var moves []string
	if err := tx.Select(&moves, `SELECT action || ':' || to_status FROM order_events WHERE order_id = $1 AND id > 0 ORDER BY id`, c.ID); err != nil {
		t.Fatal(err)
	}
	want := "created:pending_payment pay:pending ship:processing ship:processing complete:completed deliver:completed ship:completed"
	if got := strings.Join(moves, " "); got != want {
		t.Fatalf("timeline %s\nwant     %s", got, want)
	}
	var types []string
	if err := tx.Select(&types, `SELECT event_type || ':' || (payload->>'status') FROM event_outbox WHERE order_id = $1 ORDER BY id`, c.ID); err != nil {
		t.Fatal(err)
	}
	wantTypes := "order.created:pending_payment order.status_changed:pending order.status_changed:processing " +
		"order.tracking_changed:processing order.tracking_changed:processing order.status_changed:completed " +
		"order.tracking_changed:completed order.tracking_changed:completed"
	if got := strings.Join(types, " "); got != wantTypes {
		t.Fatalf("outbox %s\nwant   %s", got, wantTypes)
	}
	var late string
	if err := tx.Get(&late, `SELECT payload->'shipments'->0->>'tracking_number' FROM event_outbox WHERE order_id = $1 ORDER BY id DESC LIMIT 1`, c.ID); err != nil || late != "T1-late" {
		t.Fatalf("last tracking payload: %q %v", late, err)
	}
}

// TestHoldNotifiesTheSeller: a hold tells the seller, with the note, linking to the order.
func TestHoldNotifiesTheSeller(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	sellerID := seller(t, db)
	tx := db.MustBeginTx(ctx, nil)
	defer tx.Rollback()
	c, _, err := Create(ctx, tx, New{SellerID: sellerID, Total: money.Money{Currency: money.USD}}, Pending, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(ctx, tx, c.ID, ActionHold, "user:1", "address <check>"); err != nil {
		t.Fatal(err)
	}
	var n struct {
		Subject string `db:"subject"`
		Message string `db:"message"`
		Link    string `db:"call_to_action_link"`
	}
	if err := tx.Get(&n, `SELECT subject, message, call_to_action_link FROM notifications WHERE seller_id = $1`, sellerID); err != nil {
		t.Fatal(err)
	}
	if n.Subject != "Order 1001 is on hold" || !strings.Contains(n.Message, "address &lt;check&gt;") || n.Link != "/orders/detail/"+strconv.FormatInt(c.ID, 10) {
		t.Fatalf("notification %+v", n)
	}
}

// TestInvalidAddressNotifiesOnce: an address the country rules refuse makes the order invalid and
// tells the seller once, with the first problem, linking to the order; a passing verdict clears it.
func TestInvalidAddressNotifiesOnce(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	sellerID := seller(t, db)
	tx := db.MustBeginTx(ctx, nil)
	defer tx.Rollback()
	c, _, err := Create(ctx, tx, New{SellerID: sellerID, Total: money.Money{Currency: money.USD}}, Pending, "test")
	if err != nil {
		t.Fatal(err)
	}
	problems := []AddressProblem{{Field: "state", Message: "Choose the state or province."}, {Field: "postal_code", Message: "Enter a valid postal code."}}
	for range 2 {
		if err := CheckedAddress(ctx, tx, c.ID, problems); err != nil {
			t.Fatal(err)
		}
	}
	if s, err := Load(ctx, tx, c.ID); err != nil || s.FulfillmentStatus != FulfillmentInvalid {
		t.Fatalf("after a failing verdict: %+v %v", s, err)
	}
	var n []struct {
		Subject string `db:"subject"`
		Message string `db:"message"`
		Link    string `db:"call_to_action_link"`
	}
	if err := tx.Select(&n, `SELECT subject, message, call_to_action_link FROM notifications WHERE seller_id = $1`, sellerID); err != nil {
		t.Fatal(err)
	}
	if len(n) != 1 || n[0].Subject != "Order 1001 has an invalid address" ||
		n[0].Message != "Order 1001 will not be produced until its shipping address is fixed: Choose the state or province." ||
		n[0].Link != "/orders/detail/"+strconv.FormatInt(c.ID, 10) {
		t.Fatalf("notifications %+v", n)
	}
	if err := CheckedAddress(ctx, tx, c.ID, nil); err != nil {
		t.Fatal(err)
	}
	if s, err := Load(ctx, tx, c.ID); err != nil || s.FulfillmentStatus != FulfillmentUnfulfilled {
		t.Fatalf("after a passing verdict: %+v %v", s, err)
	}
}
