package webhooks

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/orders"
	"github.com/pressroom/pressroom/commerce/webhooks"
)

// BenchmarkFanOut delivers PRESSROOM_BENCH_WEBHOOK_EVENTS events (default 10,000: 2,500 orders with
// four events each) to 5 local endpoints through the worker's loop with its default settings, and
// reports the events and deliveries per second. scripts/bench (BENCH_ONLY=webhooks) runs it.
func BenchmarkFanOut(b *testing.B) {
	n := 10_000
	if v, err := strconv.Atoi(os.Getenv("PRESSROOM_BENCH_WEBHOOK_EVENTS")); err == nil && v >= 4 {
		n = v
	}
	const endpoints = 5
	f := setup(b)
	var got atomic.Int64
	cfg := DefaultConfig()
	cfg.Hooks.Allow = testConfig().Hooks.Allow
	for range endpoints {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			got.Add(1)
			w.WriteHeader(http.StatusNoContent)
		}))
		b.Cleanup(srv.Close)
		in := webhooks.Input{Kind: webhooks.KindCustom, URL: srv.URL, Events: webhooks.Events}
		if err := cfg.Hooks.Check(&in); err != nil {
			b.Fatal(err)
		}
		if _, err := webhooks.Create(context.Background(), f.db, f.seller, in); err != nil {
			b.Fatal(err)
		}
	}
	r, err := New(cfg, f.db, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	usd := money.Money{Amount: 1500, Currency: money.USD}
	for b.Loop() {
		b.StopTimer()
		f.db.MustExec(`DELETE FROM webhook_deliveries`)
		f.db.MustExec(`DELETE FROM event_outbox`)
		got.Store(0)
		tx := f.db.MustBeginTx(ctx, nil)
		for range n / 4 {
			if _, _, err := orders.Create(ctx, tx, orders.New{SellerID: f.seller, StoreID: f.store, Email: "buyer@example.com", Subtotal: usd,
				Total: usd, Items: []orders.Item{{ProductName: "Mug", Quantity: 1, UnitPrice: usd}}}, orders.PendingPayment, "bench"); err != nil {
				b.Fatal(err)
			}
		}
		// Three status changes after each order.created, as an order's life writes them.
		tx.MustExec(`INSERT INTO event_outbox (seller_id, order_id, event_type, payload)
			SELECT o.seller_id, o.id, 'order.status_changed', jsonb_build_object('event', 'order.status_changed', 'order_id', o.id, 'status', s)
			FROM orders o CROSS JOIN unnest(ARRAY['pending', 'processing', 'completed']) s WHERE o.seller_id = $1 ORDER BY o.id`, f.seller)
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		want := int64(n/4*4) * endpoints
		b.StartTimer()
		start := time.Now()
		for got.Load() < want {
			if _, err := r.Pass(ctx); err != nil {
				b.Fatal(err)
			}
		}
		took := time.Since(start).Seconds()
		b.ReportMetric(float64(n/4*4)/took, "events/s")
		b.ReportMetric(float64(want)/took, "deliveries/s")
		b.ReportMetric(took, "s/run")
	}
	var dup int
	f.db.Get(&dup, `SELECT count(*) FROM webhook_deliveries WHERE status <> 'succeeded' OR attempts <> 1`)
	if dup != 0 {
		b.Fatalf("%d deliveries not delivered exactly once", dup)
	}
}
