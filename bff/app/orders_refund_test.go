package app

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/bff/orders"
)

type moneyBack struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
	Reason string `json:"reason"`
	Amount struct {
		Amount   int64  `json:"amount"`
		Currency string `json:"currency"`
	} `json:"amount"`
}

type orderMoney struct {
	Status            string `json:"status"`
	PaymentStatus     string `json:"payment_status"`
	FulfillmentStatus string `json:"fulfillment_status"`
	Total             struct {
		Amount int64 `json:"amount"`
	} `json:"total"`
	Items []struct {
		ID int64 `json:"id"`
	} `json:"items"`
	Payments []struct {
		Refunds []moneyBack `json:"refunds"`
	} `json:"payments"`
	Shipments []struct {
		Carrier     string  `json:"carrier"`
		Tracking    string  `json:"tracking"`
		TrackingURL string  `json:"tracking_url"`
		DeliveredAt *string `json:"delivered_at"`
	} `json:"shipments"`
	AllowedActions []string `json:"allowed_actions"`
}

func (s *stack) orderMoney(token string, id int64) orderMoney {
	s.t.Helper()
	var d orderMoney
	r := s.do("GET", fmt.Sprintf("/api/seller/orders/%d", id), token, nil)
	if r.status != 200 {
		s.t.Fatalf("order %d: %d %s", id, r.status, r.raw)
	}
	decode(s.t, r, &d)
	return d
}

func (s *stack) act(token string, id int64, action string, body any, header ...string) reply {
	s.t.Helper()
	return s.do("POST", fmt.Sprintf("/api/seller/orders/%d/actions/%s", id, action), token, body, header...)
}

// TestSellerRefunds refunds part of an order through the test gateway, checks every refusal names
// its field, that the same request sent again refunds once, that refunds sent together never pass
// what was paid, and that the order ends refunded.
func TestSellerRefunds(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	id, _ := s.buy("rita@example.com", "Rita Refund", 2)
	d := s.orderMoney(seller, id)
	total := d.Total.Amount

	bad := []struct {
		name   string
		body   map[string]any
		header []string
		field  string
	}{
		{"no key", map[string]any{"amount": 100}, nil, "Idempotency-Key"},
		{"zero", map[string]any{"amount": 0}, []string{"Idempotency-Key", "z"}, "amount"},
		{"negative", map[string]any{"amount": -5}, []string{"Idempotency-Key", "n"}, "amount"},
		{"over the total", map[string]any{"amount": total + 1}, []string{"Idempotency-Key", "o"}, "amount"},
		{"long reason", map[string]any{"amount": 100, "reason": strings.Repeat("x", 501)}, []string{"Idempotency-Key", "l"}, "reason"},
	}
	for _, b := range bad {
		r := s.act(seller, id, "refund", b.body, b.header...)
		if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != b.field {
			t.Fatalf("%s: %d %s", b.name, r.status, r.raw)
		}
	}
	if r := s.act(seller, id, "refund", map[string]any{"amount": total + 1}, "Idempotency-Key", "o2"); !strings.Contains(r.body.Message, "at most") {
		t.Fatalf("the over-refund message says how much is left: %q", r.body.Message)
	}

	r := s.act(seller, id, "refund", map[string]any{"amount": 500, "reason": "late"}, "Idempotency-Key", "part-1")
	if r.status != 200 || !strings.HasPrefix(r.body.Message, "Refunded ") {
		t.Fatalf("part refund: %d %s", r.status, r.raw)
	}
	if r := s.act(seller, id, "refund", map[string]any{"amount": 500, "reason": "late"}, "Idempotency-Key", "part-1"); r.status != 200 {
		t.Fatalf("the same refund again: %d %s", r.status, r.raw)
	}
	d = s.orderMoney(seller, id)
	if d.PaymentStatus != "partially_refunded" || d.Status != "pending" || len(d.Payments[0].Refunds) != 1 ||
		d.Payments[0].Refunds[0].Status != "succeeded" || d.Payments[0].Refunds[0].Reason != "late" ||
		!strings.Contains(strings.Join(d.AllowedActions, ","), "refund") {
		t.Fatalf("after a part refund: %+v", d)
	}

	// Five refunds of just over half of what is left, at once: one goes through.
	left := total - 500
	codes := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := s.act(seller, id, "refund", map[string]any{"amount": left/2 + 1}, "Idempotency-Key", fmt.Sprintf("race-%d", i))
			mu.Lock()
			codes[r.status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[200] != 1 || codes[422] != 4 {
		t.Fatalf("answers %v", codes)
	}
	var refunded int64
	if err := s.app.DB.Get(&refunded, `SELECT sum(r.amount) FROM refunds r JOIN payments p ON p.id = r.payment_id
		WHERE p.order_id = $1 AND r.status = 'succeeded'`, id); err != nil || refunded > total {
		t.Fatalf("refunded %d of %d (%v)", refunded, total, err)
	}
	rest := total - refunded
	if r := s.act(seller, id, "refund", map[string]any{"amount": rest}, "Idempotency-Key", "rest"); r.status != 200 {
		t.Fatalf("the rest: %d %s", r.status, r.raw)
	}
	d = s.orderMoney(seller, id)
	if d.Status != "refunded" || d.PaymentStatus != "refunded" || strings.Join(d.AllowedActions, ",") != "archive" {
		t.Fatalf("after everything went back: %+v", d)
	}
	if r := s.act(seller, id, "refund", map[string]any{"amount": 1}, "Idempotency-Key", "more"); r.status != 409 || !strings.Contains(r.body.Message, "refund") {
		t.Fatalf("a refund of a refunded order: %d %s", r.status, r.raw)
	}
	if r := s.act(s.login("seller", "veteran@example.com"), id, "refund", map[string]any{"amount": 1}, "Idempotency-Key", "x"); r.status != 404 {
		t.Fatalf("another seller's order: %d %s", r.status, r.raw)
	}
}

// TestSellerTracking adds tracking and delivery, sends them again (nothing changes, one mail), refuses
// bad input by field, finds the order by its tracking number, and races cancel against ship.
func TestSellerTracking(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	id, num := s.buy("tom@example.com", "Tom Track", 1)

	for _, b := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"tracking_number": "1Z"}, "carrier"},
		{map[string]any{"carrier": "UPS"}, "tracking_number"},
		{map[string]any{"carrier": "UPS", "tracking_number": "1Z", "tracking_url": "javascript:alert(1)"}, "tracking_url"},
		{map[string]any{"carrier": "UPS", "tracking_number": "1Z", "item_ids": []int64{99999999}}, "item_ids"},
	} {
		if r := s.act(seller, id, "ship", b.body); r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != b.field {
			t.Fatalf("%v: %d %s", b.body, r.status, r.raw)
		}
	}
	parcel := map[string]any{"carrier": "UPS", "tracking_number": "1ZTRACK42", "tracking_url": "https://ups.example/1ZTRACK42"}
	r := s.act(seller, id, "ship", parcel)
	if r.status != 200 || r.body.Message != orders.MsgShipped {
		t.Fatalf("ship: %d %s", r.status, r.raw)
	}
	if r := s.act(seller, id, "ship", parcel); r.status != 200 || r.body.Message != orders.MsgSameTrack {
		t.Fatalf("the same tracking again: %d %s", r.status, r.raw)
	}
	d := s.orderMoney(seller, id)
	if d.Status != "completed" || d.FulfillmentStatus != "fulfilled" || len(d.Shipments) != 1 ||
		d.Shipments[0].TrackingURL != "https://ups.example/1ZTRACK42" || strings.Join(d.AllowedActions, ",") != "ship,deliver,refund,archive" {
		t.Fatalf("after shipping: %+v", d)
	}
	var mails int
	s.app.DB.Get(&mails, `SELECT count(*) FROM task_outbox WHERE task_type = 'orders:shipping-mail'
		AND convert_from(payload, 'UTF8')::jsonb->>'order_id' = $1::text`, id)
	if mails != 1 {
		t.Fatalf("%d shipping mails queued, want 1", mails)
	}
	if r := s.act(seller, id, "deliver", map[string]any{}); r.status != 200 || r.body.Message != orders.MsgDelivered {
		t.Fatalf("deliver: %d %s", r.status, r.raw)
	}
	if r := s.act(seller, id, "deliver", map[string]any{}); r.status != 200 || r.body.Message != orders.MsgWasDeliv {
		t.Fatalf("deliver again: %d %s", r.status, r.raw)
	}
	if r := s.act(seller, id, "cancel", nil); r.status != 409 || !strings.Contains(r.body.Message, "cancel") {
		t.Fatalf("cancel after delivery: %d %s", r.status, r.raw)
	}
	if d := s.orderMoney(seller, id); d.Shipments[0].DeliveredAt == nil || d.Status != "completed" {
		t.Fatalf("after delivery: %+v", d)
	}
	if l, _ := s.orders(seller, "q=1ZTRACK42"); l.Total != 1 || l.Data[0].Number != num {
		t.Fatalf("search by tracking number: %+v", l)
	}
	var events []string
	s.app.DB.Select(&events, `SELECT event_type FROM event_outbox WHERE order_id = $1 ORDER BY id`, id)
	if got := strings.Join(events, ","); got != "order.created,order.status_changed,order.status_changed,order.tracking_changed,order.status_changed,order.tracking_changed" {
		t.Fatalf("outbox %s", got)
	}
	if r := s.act(s.login("seller", "veteran@example.com"), id, "ship", parcel); r.status != 404 {
		t.Fatalf("another seller's order: %d", r.status)
	}

	t.Run("cancel and ship at once: exactly one wins", func(t *testing.T) {
		for i := range 4 {
			id, _ := s.buy(fmt.Sprintf("race%d@example.com", i), "Race", 1)
			codes := map[string]reply{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			for _, a := range []string{"cancel", "ship"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := s.act(seller, id, a, map[string]any{"carrier": "DHL", "tracking_number": fmt.Sprintf("R%d", i)})
					mu.Lock()
					codes[a] = r
					mu.Unlock()
				}()
			}
			wg.Wait()
			c, sh := codes["cancel"], codes["ship"]
			d := s.orderMoney(seller, id)
			switch {
			case c.status == 200 && sh.status == 409:
				if d.Status != "cancelled" || len(d.Shipments) != 0 || !strings.Contains(sh.body.Message, "cancelled") {
					t.Fatalf("cancel won: %+v, ship said %q", d, sh.body.Message)
				}
			case sh.status == 200 && c.status == 409:
				if d.Status != "completed" || len(d.Shipments) != 1 || !strings.Contains(c.body.Message, "completed") {
					t.Fatalf("ship won: %+v, cancel said %q", d, c.body.Message)
				}
			default:
				t.Fatalf("cancel %d %s, ship %d %s", c.status, c.raw, sh.status, sh.raw)
			}
		}
	})
}
