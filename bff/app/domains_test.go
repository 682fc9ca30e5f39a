package app

import (
	"fmt"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/bff/domains"
	"github.com/pressroom/pressroom/platform/customdomain"
	"github.com/pressroom/pressroom/platform/testinfra"
)

func TestSellerDomains(t *testing.T) {
	dns := testinfra.DNS(t)
	s := newStackWith(t, map[string]string{"PRESSROOM_DNS_RESOLVER": dns.Addr, "PRESSROOM_STORE_DOMAIN": "shops.pressroom.test"})
	seller := s.login("seller", "seller@example.com")
	veteran := s.login("seller", "veteran@example.com")
	var storeID, foreignStore int64
	if err := s.app.DB.Get(&storeID, `SELECT id FROM stores WHERE owner_id = $1`, s.userID("seller@example.com")); err != nil {
		t.Fatal(err)
	}
	if err := s.app.DB.Get(&foreignStore, `INSERT INTO stores (owner_id, name, domain) VALUES ($1, 'Vet', 'vet.pressroom.local') RETURNING id`,
		s.userID("veteran@example.com")); err != nil {
		t.Fatal(err)
	}

	r := s.do("POST", "/api/domains", seller, map[string]any{"store_id": storeID, "domain": " Shop.Example.TEST. "})
	if r.status != 201 || r.body.Message != domains.MsgAdded {
		t.Fatalf("add: %d %s", r.status, r.raw)
	}
	var d domains.Domain
	decode(t, r, &d)
	if d.Domain != "shop.example.test" || d.Status != "pending" || d.StoreID != storeID || d.StoreName != "Sam's Print Shop" ||
		d.RecordName != "_pressroom-verify.shop.example.test" || len(d.RecordValue) < 16 || d.VerifiedAt != nil {
		t.Fatalf("added: %s", r.raw)
	}

	bad := []struct {
		name, domain string
		store        int64
		field, msg   string
	}{
		{"an IP address", "10.0.0.1", storeID, "domain", string(customdomain.ErrIP)},
		{"an address with a scheme", "https://shop.example.com", storeID, "domain", string(customdomain.ErrNotBare)},
		{"a name under the store domain", "mine.shops.pressroom.test", storeID, "domain", string(customdomain.ErrReserved)},
		{"a bad name", "shop_.example.com", storeID, "domain", string(customdomain.ErrInvalid)},
		{"taken, in other letters", "SHOP.example.test", storeID, "domain", domains.MsgTaken},
		{"another seller's store", "other.example.test", foreignStore, "store_id", domains.MsgStore},
		{"no store", "other.example.test", 0, "store_id", domains.MsgStore},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			r := s.do("POST", "/api/domains", seller, map[string]any{"store_id": b.store, "domain": b.domain})
			if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != b.field || r.body.Errors[0].Message != b.msg {
				t.Fatalf("%d %s; want 422 %s %q", r.status, r.raw, b.field, b.msg)
			}
		})
	}
	// The same name for the other seller is taken too: a domain is on one store of the platform.
	if r := s.do("POST", "/api/domains", veteran, map[string]any{"store_id": foreignStore, "domain": "shop.example.test"}); r.status != 422 {
		t.Fatalf("taken by another seller: %d %s", r.status, r.raw)
	}

	check := fmt.Sprintf("/api/domains/%d/check", d.ID)
	r = s.do("POST", check, seller, nil)
	decode(t, r, &d)
	if r.status != 200 || d.Status != "failed" || d.CheckedAt == nil || r.body.Message != d.CheckError ||
		d.CheckError != "No TXT record was found at _pressroom-verify.shop.example.test. Create it with the value shown, then check again." {
		t.Fatalf("check without a record: %d %s", r.status, r.raw)
	}
	dns.SetTXT(d.RecordName, d.RecordValue)
	r = s.do("POST", check, seller, nil)
	decode(t, r, &d)
	if r.status != 200 || d.Status != "verified" || d.VerifiedAt == nil || d.CheckError != "" || r.body.Message != domains.MsgVerified {
		t.Fatalf("check with the record: %d %s", r.status, r.raw)
	}

	// Another seller neither sees nor touches it.
	one := fmt.Sprintf("/api/domains/%d", d.ID)
	for _, c := range []struct{ method, path string }{{"GET", one}, {"POST", check}, {"DELETE", one}} {
		if r := s.do(c.method, c.path, veteran, nil); r.status != 404 || r.body.Message != domains.MsgNotFound {
			t.Fatalf("%s %s as another seller: %d %s", c.method, c.path, r.status, r.raw)
		}
	}
	var list []domains.Domain
	r = s.do("GET", "/api/domains", veteran, nil)
	decode(t, r, &list)
	if r.status != 200 || len(list) != 0 {
		t.Fatalf("another seller's list: %d %s", r.status, r.raw)
	}
	r = s.do("GET", "/api/domains", seller, nil)
	decode(t, r, &list)
	// The seed's e-mail sending domain is on the same list.
	if r.status != 200 || len(list) != 2 || list[1].ID != d.ID || list[1].Status != "verified" || list[0].Domain != "mail.sams-print-shop.pressroom.local" {
		t.Fatalf("list: %d %s", r.status, r.raw)
	}

	if r := s.do("DELETE", one, seller, nil); r.status != 200 || r.body.Message != domains.MsgRemoved {
		t.Fatalf("remove: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", one, seller, nil); r.status != 404 {
		t.Fatalf("get after remove: %d %s", r.status, r.raw)
	}
	// Added at the same moment by both sellers, a name goes to exactly one store.
	var wg sync.WaitGroup
	statuses := make(chan int, 16)
	for i := range 16 {
		token, store := seller, storeID
		if i%2 == 1 {
			token, store = veteran, foreignStore
		}
		wg.Go(func() {
			statuses <- s.do("POST", "/api/domains", token, map[string]any{"store_id": store, "domain": "race.example.test"}).status
		})
	}
	wg.Wait()
	close(statuses)
	created := 0
	for st := range statuses {
		switch st {
		case 201:
			created++
		case 422:
		default:
			t.Fatalf("concurrent add answered %d", st)
		}
	}
	var rows int
	if err := s.app.DB.Get(&rows, `SELECT count(*) FROM store_domains WHERE domain = 'race.example.test'`); err != nil || created != 1 || rows != 1 {
		t.Fatalf("concurrent adds: %d created, %d rows, %v", created, rows, err)
	}

	// Removed, the name is free again.
	if r := s.do("POST", "/api/domains", veteran, map[string]any{"store_id": foreignStore, "domain": "shop.example.test"}); r.status != 201 {
		t.Fatalf("add after remove: %d %s", r.status, r.raw)
	}
}
