package refunds

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/platform/seal"
	"github.com/pressroom/pressroom/platform/testinfra"
)

func usd(a int64) money.Money { return money.Money{Amount: a, Currency: money.USD} }

// known is the gateways a payment may name: gw, as the bff's platform gateways.
func known(t *testing.T, db *sqlx.DB, gw payments.Gateway) *gateways.Resolver {
	t.Helper()
	box, err := seal.New(seal.DevPaymentKey)
	if err != nil {
		t.Fatal(err)
	}
	r, err := gateways.New(gateways.Deps{DB: db, Box: box, Known: []payments.Gateway{gw}, APIBase: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// paidOrder makes a pending order of 20.00 paid by intentID through gateway.
func paidOrder(t *testing.T, db *sqlx.DB, gateway, intentID string) int64 {
	t.Helper()
	ctx := context.Background()
	var seller int64
	email := fmt.Sprintf("s-%s@example.com", intentID)
	if err := db.Get(&seller, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', $1, 'x', '{seller}') RETURNING id`, email); err != nil {
		t.Fatal(err)
	}
	tx := db.MustBeginTx(ctx, nil)
	defer tx.Rollback()
	c, _, err := orders.Create(ctx, tx, orders.New{SellerID: seller, Email: "b@example.com", Subtotal: usd(2000), Total: usd(2000),
		Items: []orders.Item{{ProductName: "T-shirt", Quantity: 1, UnitPrice: usd(2000)}}}, orders.PendingPayment, "test")
	if err != nil {
		t.Fatal(err)
	}
	tx.MustExec(`INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status)
		VALUES ($1, $2, $3, $3, 2000, 'USD', 'succeeded')`, c.ID, gateway, intentID)
	if _, err := orders.Refresh(ctx, tx, c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := orders.Apply(ctx, tx, c.ID, orders.ActionPay, "test", ""); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return c.ID
}

func statuses(t *testing.T, db *sqlx.DB, id int64) (string, string) {
	t.Helper()
	var s struct {
		Status  string `db:"status"`
		Payment string `db:"payment_status"`
	}
	if err := db.Get(&s, `SELECT status, payment_status FROM orders WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return s.Status, s.Payment
}

func count(t *testing.T, db *sqlx.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Get(&n, q, args...); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRetryAfterFailureRefundsOnce sends a Stripe refund while Stripe cannot be reached (the refund
// stays reserved and holds its amount), then again with the same key against stripe-mock: one refund
// row, one gateway refund id, the payment partially refunded, one "refund" event.
func TestRetryAfterFailureRefundsOnce(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	cfg := payments.StripeConfig{SecretKey: "sk_test_123", PublishableKey: "pk_test_123", WebhookSecret: "whsec_1",
		APIBase: testinfra.StripeURL(t)}
	live, err := payments.NewStripe(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.APIBase = "http://127.0.0.1:1" // nothing listens: the request fails without an answer
	down, err := payments.NewStripe(cfg)
	if err != nil {
		t.Fatal(err)
	}
	id := paidOrder(t, db, "stripe", "pi_retry_1")
	req := orders.RefundRequest{Amount: usd(700), Reason: "damaged", Key: "client-1", Actor: "user:1"}

	broken, _ := New(db, known(t, db, down))
	if _, err := broken.Refund(ctx, id, req); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("refund while Stripe is down: %v", err)
	}
	if _, p := statuses(t, db, id); p != "paid" {
		t.Fatalf("a refund the gateway did not answer changed the payment status: %s", p)
	}
	// The reserved 7.00 is not refundable a second time meanwhile.
	if _, err := broken.Refund(ctx, id, orders.RefundRequest{Amount: usd(1400), Key: "client-2"}); !errors.Is(err, orders.ErrOverRefund) ||
		err.Error() != "more than is left to refund: at most $13.00 can be refunded" {
		t.Fatalf("over the remainder: %v", err)
	}

	svc, _ := New(db, known(t, db, live))
	rf, err := svc.Refund(ctx, id, req)
	if err != nil || rf.Status != orders.RefundSucceeded || rf.IdempotencyKey != orders.RefundKey(id, "client-1") {
		t.Fatalf("retry: %+v %v", rf, err)
	}
	again, err := svc.Refund(ctx, id, req)
	if err != nil || again.ID != rf.ID {
		t.Fatalf("the same request once more: %+v %v", again, err)
	}
	if n := count(t, db, `SELECT count(*) FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE p.order_id = $1`, id); n != 1 {
		t.Fatalf("%d refund rows, want 1", n)
	}
	if n := count(t, db, `SELECT count(*) FROM refunds WHERE id = $1 AND gateway_refund_id LIKE 're_%'`, rf.ID); n != 1 {
		t.Fatal("the refund does not keep Stripe's refund id")
	}
	if s, p := statuses(t, db, id); s != "pending" || p != "partially_refunded" {
		t.Fatalf("after a part refund: %s %s", s, p)
	}
	if n := count(t, db, `SELECT count(*) FROM order_events WHERE order_id = $1 AND action = 'refund' AND note = '$7.00: damaged'`, id); n != 1 {
		t.Fatalf("%d refund events", n)
	}
	if _, err := svc.Refund(ctx, id, orders.RefundRequest{Amount: usd(800), Key: "client-1"}); !errors.Is(err, orders.ErrKeyReused) {
		t.Fatalf("a key reused for another amount: %v", err)
	}
}

// TestConcurrentRefundsNeverPassThePayment sends ten refunds of 5.00 at once against a payment of
// 20.00: four go through, six are refused, and the order ends refunded.
func TestConcurrentRefundsNeverPassThePayment(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	gw, _ := payments.NewTest("test")
	in, _ := gw.CreateIntent(ctx, payments.IntentRequest{IdempotencyKey: "c-1", Amount: usd(2000)})
	id := paidOrder(t, db, "test", in.ID)
	svc, _ := New(db, known(t, db, gw))

	var wg sync.WaitGroup
	var mu sync.Mutex
	got := map[string]int{}
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := svc.Refund(ctx, id, orders.RefundRequest{Amount: usd(500), Key: fmt.Sprintf("k-%d", i)})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				got["ok"]++
			case errors.Is(err, orders.ErrOverRefund), errors.Is(err, orders.ErrRefused):
				got["refused"]++
			default:
				t.Errorf("refund %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if got["ok"] != 4 || got["refused"] != 6 {
		t.Fatalf("answers %v", got)
	}
	if n := count(t, db, `SELECT coalesce(sum(r.amount), 0) FROM refunds r JOIN payments p ON p.id = r.payment_id
		WHERE p.order_id = $1 AND r.status = 'succeeded'`, id); n != 2000 {
		t.Fatalf("refunded %d, paid 2000", n)
	}
	if s, p := statuses(t, db, id); s != "refunded" || p != "refunded" {
		t.Fatalf("after everything went back: %s %s", s, p)
	}
	if n := count(t, db, `SELECT count(*) FROM event_outbox WHERE order_id = $1 AND event_type = 'order.status_changed'
		AND payload->>'status' = 'refunded' AND payload->>'payment_status' = 'refunded'`, id); n != 1 {
		t.Fatalf("%d status_changed events to refunded", n)
	}
}

// TestRefusedRefundFreesItsAmount: a refund the gateway refuses is failed, says why, and leaves the
// whole payment refundable.
func TestRefusedRefundFreesItsAmount(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	gw, _ := payments.NewTest("test")
	in, _ := gw.CreateIntent(ctx, payments.IntentRequest{IdempotencyKey: "c-2", Amount: usd(2000)})
	id := paidOrder(t, db, "test", in.ID)
	svc, _ := New(db, known(t, db, gw))
	rf, err := svc.Refund(ctx, id, orders.RefundRequest{Amount: usd(1051), Key: "a"})
	if !errors.Is(err, ErrFailed) || rf.Status != orders.RefundFailed || rf.Message == "" {
		t.Fatalf("refused refund: %+v %v", rf, err)
	}
	if _, p := statuses(t, db, id); p != "paid" {
		t.Fatalf("payment status %s", p)
	}
	if _, err := svc.Refund(ctx, id, orders.RefundRequest{Amount: usd(2000), Key: "b"}); err != nil {
		t.Fatalf("the whole amount after a refused refund: %v", err)
	}
	if _, err := svc.Refund(ctx, id, orders.RefundRequest{Amount: usd(1), Key: "c"}); !errors.Is(err, orders.ErrRefused) {
		t.Fatalf("a refund of a refunded order: %v", err)
	}
}
