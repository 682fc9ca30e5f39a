package app

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/customers"
	"github.com/pressroom/pressroom/bff/seed"
)

type customerRow struct {
	ID          int64  `json:"id"`
	Email       string `json:"email"`
	Name        string `json:"name"`
	Country     string `json:"country"`
	CountryName string `json:"country_name"`
	Orders      int    `json:"orders"`
	Spent       []struct {
		Amount   int64  `json:"amount"`
		Currency string `json:"currency"`
	} `json:"total_spent"`
	LastOrderAt string `json:"last_order_at"`
}

type customerList struct {
	Data     []customerRow `json:"data"`
	Total    int           `json:"total"`
	LastPage int           `json:"last_page"`
}

func (s *stack) customers(token, query string) (customerList, reply) {
	s.t.Helper()
	r := s.do("GET", "/api/seller/customers?"+query, token, nil)
	var l customerList
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &l); err != nil {
			s.t.Fatalf("list %s: %v", r.raw, err)
		}
	}
	return l, r
}

func emails(l customerList) string {
	var out []string
	for _, c := range l.Data {
		out = append(out, c.Email)
	}
	return strings.Join(out, ",")
}

// paid is what order id's buyer paid, from its payment.
func (s *stack) paid(id int64) int64 {
	s.t.Helper()
	var n int64
	if err := s.app.DB.Get(&n, `SELECT amount FROM payments WHERE order_id = $1 AND status = 'succeeded'`, id); err != nil {
		s.t.Fatal(err)
	}
	return n
}

func TestSellerCustomers(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	a1, _ := s.buy("alice@example.com", "Alice Archer", 1)
	b1, _ := s.buy("bob@example.com", "Bob Baker", 2)
	a2, a2Num := s.buy("Alice@Example.COM", "Alice A. Archer", 3) // the same buyer, written otherwise
	s.buy("carol@example.com", "=Carol", 1)
	// Bob got 1.00 back; an order still waiting for its payment makes no customer.
	if _, err := s.app.DB.Exec(`INSERT INTO refunds (payment_id, amount) SELECT id, 100 FROM payments WHERE order_id = $1`, b1); err != nil {
		t.Fatal(err)
	}
	sellerID := s.userID("seller@example.com")
	if _, err := s.app.DB.Exec(`INSERT INTO orders (seller_id, number, email, customer_name, status) VALUES ($1, 'X-1', 'dave@example.com', 'Dave', 'pending_payment')`, sellerID); err != nil {
		t.Fatal(err)
	}

	l, r := s.customers(seller, "")
	if r.status != 200 || l.Total != 3 || emails(l) != "carol@example.com,Alice@Example.COM,bob@example.com" {
		t.Fatalf("list: %d %s", r.status, r.raw)
	}
	alice := l.Data[1]
	if alice.Orders != 2 || alice.Name != "Alice A. Archer" || alice.Country != "DE" || alice.CountryName != "Germany" ||
		len(alice.Spent) != 1 || alice.Spent[0].Amount != s.paid(a1)+s.paid(a2) || alice.Spent[0].Currency == "" {
		t.Fatalf("alice: %+v", alice)
	}
	if bob := l.Data[2]; bob.Orders != 1 || bob.Spent[0].Amount != s.paid(b1)-100 {
		t.Fatalf("bob, refund taken off: %+v", bob)
	}

	tests := []struct{ name, query, want string }{
		{"e-mail prefix, any case", "q=ALICE@", "Alice@Example.COM"},
		{"name part", "q=bake", "bob@example.com"},
		{"an older name finds the buyer", "q=alice%20archer", "Alice@Example.COM"},
		{"no match", "q=zed", ""},
		{"wildcards are literal", "q=%25", ""},
		{"e-mail inside is no prefix", "q=example.com", ""},
		{"by orders", "order_by=orders:desc", "Alice@Example.COM,carol@example.com,bob@example.com"},
		{"by name", "order_by=name:asc", "carol@example.com,Alice@Example.COM,bob@example.com"},
		{"by e-mail", "order_by=email:asc", "Alice@Example.COM,bob@example.com,carol@example.com"},
		{"by spent", "order_by=total_spent:desc", "Alice@Example.COM,bob@example.com,carol@example.com"},
		{"by last order, oldest first", "order_by=last_order_at:asc", "bob@example.com,Alice@Example.COM,carol@example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, r := s.customers(seller, tt.query)
			if r.status != 200 || emails(l) != tt.want {
				t.Fatalf("%d got %q, want %q (%s)", r.status, emails(l), tt.want, r.raw)
			}
		})
	}

	t.Run("paging", func(t *testing.T) {
		l, r := s.customers(seller, "per_page=2&page=2")
		if r.status != 200 || emails(l) != "bob@example.com" || l.Total != 3 || l.LastPage != 2 {
			t.Fatalf("page 2: %d %s", r.status, r.raw)
		}
		if l, _ := s.customers(seller, "page=7"); len(l.Data) != 0 || l.Total != 3 {
			t.Fatalf("past the end: %+v", l)
		}
	})

	for _, b := range []struct{ query, field string }{{"order_by=password:asc", "order_by"}, {"per_page=500", "per_page"}, {"page=0", "page"}} {
		t.Run("refuses "+b.query, func(t *testing.T) {
			if _, r := s.customers(seller, b.query); r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != b.field {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}

	t.Run("csv export, streamed, in the list's order", func(t *testing.T) {
		r := s.do("GET", "/api/seller/customers/export.csv?order_by=email:asc", seller, nil)
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") ||
			!strings.Contains(r.header.Get("Content-Disposition"), `filename="customers-`) {
			t.Fatalf("%d %v %s", r.status, r.header, r.raw)
		}
		rows, err := csv.NewReader(strings.NewReader(string(r.raw))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 4 || strings.Join(rows[0], ",") != "email,name,country,orders,total_spent,first_order_at,last_order_at" {
			t.Fatalf("rows %q", rows)
		}
		wantSpent := fmt.Sprintf("%s %d.%02d", alice.Spent[0].Currency, alice.Spent[0].Amount/100, alice.Spent[0].Amount%100)
		if rows[1][0] != "Alice@Example.COM" || rows[1][3] != "2" || rows[1][4] != wantSpent || rows[3][1] != "'=Carol" {
			t.Fatalf("cells %q (want spent %q)", rows, wantSpent)
		}
		if r := s.do("GET", "/api/seller/customers/export.csv?q=bob", seller, nil); strings.Count(string(r.raw), "\n") != 2 {
			t.Fatalf("search narrows the export: %s", r.raw)
		}
	})

	var detail struct {
		customerRow
		ShippingAddress map[string]string `json:"shipping_address"`
		OrderList       []struct {
			ID     int64  `json:"id"`
			Number string `json:"number"`
			Items  int    `json:"items"`
			Status string `json:"status"`
			Total  struct {
				Amount int64 `json:"amount"`
			} `json:"total"`
		} `json:"order_list"`
	}
	r = s.do("GET", fmt.Sprintf("/api/seller/customers/%d", alice.ID), seller, nil)
	if r.status != 200 {
		t.Fatalf("detail: %d %s", r.status, r.raw)
	}
	decode(t, r, &detail)
	if detail.Orders != 2 || len(detail.OrderList) != 2 || detail.OrderList[0].ID != a2 || detail.OrderList[0].Number != a2Num ||
		detail.OrderList[0].Items != 3 || detail.OrderList[1].ID != a1 || detail.ShippingAddress["city"] != "Berlin" ||
		detail.OrderList[0].Total.Amount <= 0 {
		t.Fatalf("detail: %s", r.raw)
	}

	t.Run("another seller's buyer of the same address is another customer", func(t *testing.T) {
		other := s.login("seller", "veteran@example.com")
		if _, err := s.app.DB.Exec(`INSERT INTO orders (seller_id, number, email, customer_name, status, total) VALUES ($1, '1', 'alice@example.com', 'Alice V', 'pending', 500)`,
			s.userID("veteran@example.com")); err != nil {
			t.Fatal(err)
		}
		l, _ := s.customers(other, "")
		if l.Total != 1 || l.Data[0].Orders != 1 || l.Data[0].ID == alice.ID || l.Data[0].Spent[0].Amount != 0 {
			t.Fatalf("veteran's list: %+v", l)
		}
		for _, p := range []string{fmt.Sprintf("/api/seller/customers/%d", alice.ID)} {
			if r := s.do("GET", p, other, nil); r.status != 404 || r.body.Message != customers.MsgNotFound {
				t.Fatalf("%s: %d %s", p, r.status, r.raw)
			}
		}
		for _, p := range []string{"/api/seller/customers/0", "/api/seller/customers/abc", "/api/seller/customers/99999999",
			fmt.Sprintf("/api/seller/customers/%d", l.Data[0].ID)} {
			if r := s.do("GET", p, seller, nil); r.status != 404 {
				t.Fatalf("%s: %d", p, r.status)
			}
		}
	})

	t.Run("a team member limited to other stores sees none of them", func(t *testing.T) {
		var storeID int64
		if err := s.app.DB.Get(&storeID, `SELECT id FROM stores WHERE slug = $1`, seed.DemoStoreSlug); err != nil {
			t.Fatal(err)
		}
		limit := func(ids string) string {
			if _, err := s.app.DB.Exec(`UPDATE team_members SET store_ids = $1::bigint[] WHERE member_id = $2`, ids, s.userID("team@example.com")); err != nil {
				t.Fatal(err)
			}
			return s.switchInto("team@example.com")
		}
		member := limit(fmt.Sprintf("{%d}", storeID+100000))
		if l, r := s.customers(member, ""); r.status != 200 || l.Total != 0 {
			t.Fatalf("limited elsewhere: %d %s", r.status, r.raw)
		}
		if r := s.do("GET", fmt.Sprintf("/api/seller/customers/%d", alice.ID), member, nil); r.status != 404 {
			t.Fatalf("detail outside the member's stores: %d", r.status)
		}
		if r := s.do("GET", "/api/seller/customers/export.csv", member, nil); strings.Count(string(r.raw), "\n") != 1 {
			t.Fatalf("export outside the member's stores: %s", r.raw)
		}
		member = limit(fmt.Sprintf("{%d}", storeID))
		if l, r := s.customers(member, ""); r.status != 200 || l.Total != 3 {
			t.Fatalf("limited to the store: %d %s", r.status, r.raw)
		}
	})

	t.Run("without get_orders every customers call is refused", func(t *testing.T) {
		support := s.switchInto("support@example.com")
		for _, p := range []string{"/api/seller/customers", "/api/seller/customers/export.csv", fmt.Sprintf("/api/seller/customers/%d", alice.ID)} {
			if r := s.do("GET", p, support, nil); r.status != 403 {
				t.Fatalf("%s: %d %s", p, r.status, r.raw)
			}
		}
	})
}
