package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/bff/orders"
)

var goodUS = map[string]string{"name": "Nora North", "line1": "5 Park Ave", "city": "New York", "state": "us-ny",
	"postal_code": "10001", "country": "us"}

type addressOrder struct {
	Status            string            `json:"status"`
	FulfillmentStatus string            `json:"fulfillment_status"`
	CustomerName      string            `json:"customer_name"`
	ShippingAddress   map[string]string `json:"shipping_address"`
	AddressErrors     []struct {
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"address_errors"`
	Events []struct {
		Action    string `json:"action"`
		ActorName string `json:"actor_name"`
		Note      string `json:"note"`
	} `json:"events"`
	AllowedActions []string `json:"allowed_actions"`
}

func (s *stack) addressOrder(token string, id int64) addressOrder {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/seller/orders/%d", id), token, nil)
	if r.status != 200 {
		s.t.Fatalf("order %d: %d %s", id, r.status, r.raw)
	}
	var d addressOrder
	decode(s.t, r, &d)
	return d
}

// buyBadAddress places a paid order whose address the country rules refuse by the time it is paid:
// the checkout's address is changed behind the buyer's back, as rules changing or an order arriving
// from another system would leave it.
func (s *stack) buyBadAddress(email string) int64 {
	s.t.Helper()
	shop, store, id := s.checkout(email, "Ivy Invalid", 1)
	if _, err := s.app.DB.Exec(`UPDATE checkouts SET address = address || '{"country": "US", "state": "", "postal_code": "ABC"}' WHERE id = $1`, id); err != nil {
		s.t.Fatal(err)
	}
	res, err := shop.Pay(context.Background(), store, id)
	if err != nil {
		s.t.Fatal(err)
	}
	return res.OrderID
}

func TestOrderAddressEdit(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	id, _ := s.buy("addr@example.com", "Ada Address", 1)

	d := s.addressOrder(seller, id)
	if !strings.Contains(strings.Join(d.AllowedActions, ","), "update_address") || d.AddressErrors != nil {
		t.Fatalf("a pending order's address is editable: %+v", d)
	}

	bad := map[string]string{"name": " ", "line1": "1 Road", "city": "Austin", "state": "US-XX", "postal_code": "7870", "country": "US"}
	r := s.act(seller, id, "update_address", bad)
	fields := map[string]bool{}
	for _, e := range r.body.Errors {
		fields[e.Field] = true
	}
	if r.status != 422 || r.body.Message != orders.MsgBadAddress || !fields["name"] || !fields["state"] || !fields["postal_code"] || len(fields) != 3 {
		t.Fatalf("refused address: %d %s", r.status, r.raw)
	}
	if r := s.act(seller, id, "update_address", map[string]string{"name": "X", "line1": "1", "city": "Y", "country": "ZZ"}); r.status != 422 || r.body.Errors[0].Field != "country" {
		t.Fatalf("unknown country: %d %s", r.status, r.raw)
	}
	if d := s.addressOrder(seller, id); d.ShippingAddress["city"] != "Berlin" || len(d.Events) != 2 {
		t.Fatalf("a refused edit stores nothing: %+v", d)
	}

	r = s.act(seller, id, "update_address", goodUS)
	if r.status != 200 || r.body.Message != orders.MsgAddressUpdated {
		t.Fatalf("edit: %d %s", r.status, r.raw)
	}
	d = s.addressOrder(seller, id)
	last := d.Events[len(d.Events)-1]
	if d.ShippingAddress["state"] != "US-NY" || d.ShippingAddress["country"] != "US" || d.CustomerName != "Nora North" ||
		d.Status != "pending" || last.Action != "update_address" || last.ActorName != "Sam Seller" ||
		!strings.Contains(last.Note, "5 Park Ave") {
		t.Fatalf("edited: %+v", d)
	}

	// On hold the address can still change; once in production it cannot.
	if r := s.act(seller, id, "hold", nil); r.status != 200 {
		t.Fatalf("hold: %d %s", r.status, r.raw)
	}
	if r := s.act(seller, id, "update_address", goodUS); r.status != 200 {
		t.Fatalf("edit on hold: %d %s", r.status, r.raw)
	}
	if r := s.act(seller, id, "release", nil); r.status != 200 {
		t.Fatalf("release: %d %s", r.status, r.raw)
	}
	admin := s.login("admin", "admin@example.com")
	if r := s.do("POST", fmt.Sprintf("/api/admin/orders/%d/actions/produce", id), admin, nil); r.status != 200 {
		t.Fatalf("produce: %d %s", r.status, r.raw)
	}
	if d := s.addressOrder(seller, id); strings.Contains(strings.Join(d.AllowedActions, ","), "update_address") {
		t.Fatalf("in production the edit is not offered: %v", d.AllowedActions)
	}
	r = s.act(seller, id, "update_address", goodUS)
	if r.status != 409 || !strings.Contains(r.body.Message, "processing") {
		t.Fatalf("edit in production: %d %s", r.status, r.raw)
	}
	if r := s.act(seller, id, "ship", map[string]any{"carrier": "UPS", "tracking_number": "1Z1"}); r.status != 200 {
		t.Fatalf("ship: %d %s", r.status, r.raw)
	}
	if r := s.act(seller, id, "update_address", goodUS); r.status != 409 || !strings.Contains(r.body.Message, "completed") {
		t.Fatalf("edit once shipped: %d %s", r.status, r.raw)
	}

	t.Run("another seller's order is not found", func(t *testing.T) {
		other := s.login("seller", "veteran@example.com")
		if r := s.act(other, id, "update_address", goodUS); r.status != 404 {
			t.Fatalf("%d %s", r.status, r.raw)
		}
	})

	t.Run("an edit and a ship at once: one order of events, consistent", func(t *testing.T) {
		for round := range 4 {
			id, _ := s.buy(fmt.Sprintf("race%d@example.com", round), "Rae Race", 1)
			codes := map[string]int{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			for _, a := range []string{"update_address", "ship"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					var body any = goodUS
					if a == "ship" {
						body = map[string]any{"carrier": "DHL", "tracking_number": fmt.Sprintf("R%d", round)}
					}
					r := s.act(seller, id, a, body)
					mu.Lock()
					codes[a] = r.status
					mu.Unlock()
				}()
			}
			wg.Wait()
			d := s.addressOrder(seller, id)
			var moves []string
			for _, e := range d.Events[2:] {
				moves = append(moves, e.Action)
			}
			got := strings.Join(moves, ",")
			editFirst := codes["update_address"] == 200 && codes["ship"] == 200 && strings.HasPrefix(got, "update_address,ship") &&
				d.ShippingAddress["city"] == "New York"
			shipFirst := codes["ship"] == 200 && codes["update_address"] == 409 && !strings.Contains(got, "update_address") &&
				d.ShippingAddress["city"] == "Berlin"
			if !editFirst && !shipFirst {
				t.Fatalf("answers %v, events %s, address %v", codes, got, d.ShippingAddress)
			}
		}
	})
}

func TestInvalidAddressWaits(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	admin := s.login("admin", "admin@example.com")
	id := s.buyBadAddress("ivy@example.com")
	okID, _ := s.buy("fine@example.com", "Fine Fiona", 1)

	d := s.addressOrder(seller, id)
	fields := map[string]bool{}
	for _, e := range d.AddressErrors {
		fields[e.Field] = true
	}
	if d.Status != "pending" || d.FulfillmentStatus != "invalid" || !fields["state"] || !fields["postal_code"] ||
		strings.Join(d.AllowedActions, ",") != "hold,cancel,refund,update_address" {
		t.Fatalf("flagged: %+v", d)
	}
	l, r := s.orders(seller, "fulfillment_status=invalid")
	if r.status != 200 || l.Total != 1 || l.Data[0].ID != id {
		t.Fatalf("the invalid-address list: %d %s", r.status, r.raw)
	}
	var notes int
	if err := s.app.DB.Get(&notes, `SELECT count(*) FROM notifications WHERE seller_id = $1 AND subject LIKE '%has an invalid address'
		AND call_to_action_link = $2`, s.userID("seller@example.com"), fmt.Sprintf("/orders/detail/%d", id)); err != nil || notes != 1 {
		t.Fatalf("seller notified: %d %v", notes, err)
	}

	// It waits: not shipped, not produced.
	if r := s.act(seller, id, "ship", map[string]any{"carrier": "DHL", "tracking_number": "W1"}); r.status != 409 || !strings.Contains(r.body.Message, "address is invalid") {
		t.Fatalf("ship: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", fmt.Sprintf("/api/admin/orders/%d/actions/produce", id), admin, nil); r.status != 409 {
		t.Fatalf("produce: %d %s", r.status, r.raw)
	}

	// The seller fixes it: it resumes.
	if r := s.act(seller, id, "update_address", goodUS); r.status != 200 {
		t.Fatalf("fix: %d %s", r.status, r.raw)
	}
	d = s.addressOrder(seller, id)
	if d.FulfillmentStatus != "unfulfilled" || d.AddressErrors != nil || !strings.Contains(strings.Join(d.AllowedActions, ","), "ship") {
		t.Fatalf("fixed: %+v", d)
	}
	if l, _ := s.orders(seller, "fulfillment_status=invalid"); l.Total != 0 {
		t.Fatalf("the list is empty again: %+v", l)
	}
	if r := s.do("POST", fmt.Sprintf("/api/admin/orders/%d/actions/produce", id), admin, nil); r.status != 200 {
		t.Fatalf("produce once fixed: %d %s", r.status, r.raw)
	}
	if d := s.addressOrder(seller, okID); d.FulfillmentStatus != "unfulfilled" || d.AddressErrors != nil {
		t.Fatalf("a good address is not flagged: %+v", d)
	}
}
