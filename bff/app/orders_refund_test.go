package app

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/orders"
	"github.com/pressroom/pressroom/platform/blob"
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
	heldBefore := s.billing(seller).Held

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
	// The ledger gave back the order's earnings with the refunds: nothing of it is held any more,
	// and each settled refund is one refund entry.
	if b := s.billing(seller); b.Held >= heldBefore {
		t.Fatalf("held %d after refunding everything, %d before", b.Held, heldBefore)
	}
	var entries int
	s.app.DB.Get(&entries, `SELECT count(*) FROM ledger_entries WHERE order_id = $1 AND type = 'refund'`, id)
	var settled int
	s.app.DB.Get(&settled, `SELECT count(*) FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE p.order_id = $1 AND r.status = 'succeeded'`, id)
	if entries == 0 || entries > settled {
		t.Fatalf("%d refund entries for %d settled refunds", entries, settled)
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
	before := s.billing(seller)
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
	// Shipping made the order's held earnings available, once.
	if after := s.billing(seller); before.Held <= after.Held || after.Available-before.Available != before.Held-after.Held {
		t.Fatalf("ledger before shipping %+v, after %+v", before, after)
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

// TestProductionQueue: an admin sees a paid order's approved items, puts the order in production,
// ships it by CSV (a report per line) and marks it delivered; sellers are refused.
func TestProductionQueue(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	admin := s.login("admin", "admin@example.com")
	id, num := s.buy("pia@example.com", "Pia Production", 1)
	other, _ := s.buy("olaf@example.com", "Olaf", 1)

	queue := func() []int64 {
		r := s.do("GET", "/api/admin/production?per_page=100", admin, nil)
		if r.status != 200 {
			t.Fatalf("queue: %d %s", r.status, r.raw)
		}
		var page struct {
			Data []struct {
				OrderID int64 `json:"order_id"`
			} `json:"data"`
			Total int `json:"total"`
		}
		if err := json.Unmarshal(r.raw, &page); err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, it := range page.Data {
			ids = append(ids, it.OrderID)
		}
		if page.Total != len(ids) {
			t.Fatalf("queue total %d for %d items: %s", page.Total, len(ids), r.raw)
		}
		return ids
	}
	if got := queue(); len(got) != 0 {
		t.Fatalf("nothing approved yet, queue %v", got)
	}
	// The designer review approves the order's print files.
	s.app.DB.MustExec(`UPDATE design_order_items SET status = 'approved' WHERE order_item_id IN (SELECT id FROM order_items WHERE order_id = $1)`, id)
	if got := queue(); len(got) != 1 || got[0] != id {
		t.Fatalf("queue %v, want [%d]", got, id)
	}
	if r := s.do("GET", "/api/admin/production", seller, nil); r.status != 403 {
		t.Fatalf("a seller reads the queue: %d", r.status)
	}
	s.checkBatch(admin, seller, id, num)
	if r := s.do("POST", fmt.Sprintf("/api/admin/orders/%d/actions/produce", id), seller, nil); r.status != 403 {
		t.Fatalf("a seller produces: %d", r.status)
	}
	r := s.do("POST", fmt.Sprintf("/api/admin/orders/%d/actions/produce", id), admin, nil)
	if r.status != 200 || s.orderMoney(seller, id).Status != "processing" {
		t.Fatalf("produce: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", fmt.Sprintf("/api/admin/orders/%d/actions/produce", id), admin, nil); r.status != 409 {
		t.Fatalf("produce twice: %d %s", r.status, r.raw)
	}
	csv := "order_number,carrier,tracking_number,tracking_url\n" +
		num + ",DHL,JJD01,https://dhl.example/JJD01\n" +
		"999999,DHL,X1\n" +
		fmt.Sprintf("#%d,,X2\n", other) +
		num + ",DHL,JJD01,https://dhl.example/JJD01\n"
	r = s.do("POST", "/api/admin/production/tracking", admin, map[string]string{"csv": csv})
	if r.status != 200 {
		t.Fatalf("csv: %d %s", r.status, r.raw)
	}
	var report []struct {
		Line    int    `json:"line"`
		OK      bool   `json:"ok"`
		Message string `json:"message"`
	}
	decode(t, r, &report)
	want := []string{"2 true " + orders.MsgShipped, "3 false No open order has this number.", "4 false " + orders.MsgCarrier,
		"5 true " + orders.MsgSameTrack}
	if len(report) != len(want) {
		t.Fatalf("report %+v", report)
	}
	for i, w := range want {
		if got := fmt.Sprintf("%d %v %s", report[i].Line, report[i].OK, report[i].Message); got != w {
			t.Fatalf("line %d: %s, want %s", i, got, w)
		}
	}
	if d := s.orderMoney(seller, id); d.Status != "completed" || d.Shipments[0].Tracking != "JJD01" {
		t.Fatalf("after the csv: %+v", d)
	}
	if got := queue(); len(got) != 0 {
		t.Fatalf("shipped items stay in the queue: %v", got)
	}
	if r := s.do("POST", fmt.Sprintf("/api/admin/orders/%d/actions/deliver", id), admin, map[string]any{}); r.status != 200 || r.body.Message != orders.MsgDelivered {
		t.Fatalf("deliver: %d %s", r.status, r.raw)
	}
	var actors []string
	s.app.DB.Select(&actors, `SELECT action || ' ' || (actor LIKE 'user:%')::text FROM order_events WHERE order_id = $1 AND action IN ('process', 'ship', 'deliver') ORDER BY id`, id)
	if strings.Join(actors, ",") != "process true,ship true,deliver true" {
		t.Fatalf("production events %v", actors)
	}
}

// checkBatch downloads the production batch with order id's print files in the store: a zip with
// each file in the order's folder and a manifest naming it; a seller is refused, and a bad or empty
// day answers why.
func (s *stack) checkBatch(admin, seller string, id int64, num string) {
	t := s.t
	t.Helper()
	store, err := blob.New(s.cfg.Blob, false)
	if err != nil {
		t.Fatal(err)
	}
	png := []byte("\x89PNG print file of order " + num)
	var items []int64
	s.app.DB.Select(&items, `SELECT di.id FROM design_order_items di JOIN order_items i ON i.id = di.order_item_id WHERE i.order_id = $1 ORDER BY di.id`, id)
	if len(items) == 0 {
		t.Fatal("the order has no print files to batch")
	}
	key := fmt.Sprintf("print-files/batch-test-%d.png", id)
	if err := store.Put(context.Background(), key, bytes.NewReader(png), int64(len(png)), "image/png"); err != nil {
		t.Fatal(err)
	}
	// The first file is in the store; any others were never rendered and show as missing.
	s.app.DB.MustExec(`UPDATE design_order_items SET print_key = CASE WHEN id = $1 THEN $2 ELSE '' END WHERE id = ANY($3)`, items[0], key, pq.Array(items))

	if r := s.do("GET", "/api/admin/production/batch.zip", seller, nil); r.status != 403 {
		t.Fatalf("a seller downloads the batch: %d", r.status)
	}
	if r := s.do("GET", "/api/admin/production/batch.zip?date=26-11-2026", admin, nil); r.status != 422 || r.body.Message != orders.MsgBatchDate {
		t.Fatalf("a bad day: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/admin/production/batch.zip?date=2001-01-01", admin, nil); r.status != 404 || r.body.Message != orders.MsgBatchEmpty {
		t.Fatalf("a day without orders: %d %s", r.status, r.raw)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	r := s.do("GET", "/api/admin/production/batch.zip?date="+today, admin, nil)
	if r.status != 200 || r.header.Get("Content-Type") != "application/zip" || !strings.Contains(r.header.Get("Content-Disposition"), "production-"+today+".zip") {
		t.Fatalf("batch: %d %v", r.status, r.header)
	}
	z, err := zip.NewReader(bytes.NewReader(r.raw), int64(len(r.raw)))
	if err != nil {
		t.Fatalf("the batch is not a zip: %v", err)
	}
	got := map[string][]byte{}
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		got[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	rows, err := csv.NewReader(bytes.NewReader(got["manifest.csv"])).ReadAll()
	if err != nil || len(rows) != len(items)+1 || rows[0][0] != "file" {
		t.Fatalf("manifest %q (%v); want a header and %d files", rows, err, len(items))
	}
	first := rows[1]
	if first[1] != num || first[9] != "ok" || !bytes.Equal(got[first[0]], png) || !strings.HasPrefix(first[0], fmt.Sprintf("%s-%d/", num, id)) {
		t.Errorf("first file %q: %d bytes in the zip", first, len(got[first[0]]))
	}
	for _, row := range rows[2:] {
		if row[9] != "missing" || got[row[0]] != nil {
			t.Errorf("a file never rendered: %q", row)
		}
	}
}
