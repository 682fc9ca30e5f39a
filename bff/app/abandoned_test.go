package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pressroom/pressroom/bff/abandoned"
	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/commerce/recovery"
)

type abandonedList struct {
	Data []struct {
		ID        string `json:"id"`
		Email     string `json:"email"`
		StoreName string `json:"store_name"`
		Items     int    `json:"items"`
		Lines     []struct {
			Name     string `json:"name"`
			Quantity int    `json:"quantity"`
		} `json:"lines"`
		Total struct {
			Amount int64 `json:"amount"`
		} `json:"total"`
		Mails []struct {
			Step   int     `json:"step"`
			Status string  `json:"status"`
			SentAt *string `json:"sent_at"`
		} `json:"recovery_mails"`
		OpenedAt    *string `json:"opened_at"`
		RecoveredAt *string `json:"recovered_at"`
		OrderID     *int64  `json:"order_id"`
		OrderNumber string  `json:"order_number"`
	} `json:"data"`
	Total int `json:"total"`
}

func (s *stack) abandoned(token, query string) (abandonedList, reply) {
	s.t.Helper()
	r := s.do("GET", "/api/seller/abandoned-checkouts?"+query, token, nil)
	var l abandonedList
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &l); err != nil {
			s.t.Fatalf("list %s: %v", r.raw, err)
		}
	}
	return l, r
}

func abandonedEmails(l abandonedList) string {
	var out []string
	for _, k := range l.Data {
		out = append(out, k.Email)
	}
	return strings.Join(out, ",")
}

func TestSellerAbandonedCheckouts(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	seller := s.login("seller", "seller@example.com")
	shop, store, alice := s.checkout("alice@example.com", "Alice", 2)
	_, _, bob := s.checkout("bob@example.com", "Bob", 1)
	if n, err := recovery.MarkAbandoned(ctx, s.app.DB, time.Now().Add(2*time.Hour), time.Hour, 10); err != nil || n != 2 {
		t.Fatalf("marked %d: %v", n, err)
	}
	s.checkout("carol@example.com", "Carol", 1) // still open: not listed
	// Bob left long ago; Alice just now, was mailed twice (the second failed), came back and paid.
	if _, err := s.app.DB.Exec(`UPDATE checkouts SET abandoned_at = CASE WHEN id = $1 THEN now() - interval '1 minute'
		ELSE '2000-01-05T12:00:00Z' END WHERE id IN ($1, $2)`, alice, bob); err != nil {
		t.Fatal(err)
	}
	if _, err := s.app.DB.Exec(`INSERT INTO checkout_recovery_mails (checkout_id, step, status, sent_at)
		VALUES ($1, 1, 'sent', now()), ($1, 2, 'failed', NULL)`, alice); err != nil {
		t.Fatal(err)
	}
	if _, err := recovery.Restore(ctx, s.app.DB, store, alice); err != nil {
		t.Fatal(err)
	}
	l, r := s.abandoned(seller, "")
	if r.status != 200 || abandonedEmails(l) != "alice@example.com,bob@example.com" || l.Total != 2 {
		t.Fatalf("list: %d %s", r.status, r.raw)
	}
	if a := l.Data[0]; a.OpenedAt == nil || a.RecoveredAt != nil || a.OrderID != nil || a.Items != 2 || len(a.Lines) != 1 ||
		a.Lines[0].Quantity != 2 || a.Total.Amount <= 0 || len(a.Mails) != 2 || a.Mails[0].Step != 1 ||
		a.Mails[0].Status != "sent" || a.Mails[0].SentAt == nil || a.Mails[1].Status != "failed" || a.Mails[1].SentAt != nil {
		t.Fatalf("alice, opened: %s", r.raw)
	}
	res, err := shop.Pay(ctx, store, alice)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, query, want string
		total             int
	}{
		{"all", "", "alice@example.com,bob@example.com", 2},
		{"recovered", "recovered=yes", "alice@example.com", 1},
		{"not recovered", "recovered=no", "bob@example.com", 1},
		{"today", "date_range=today", "alice@example.com", 1},
		{"custom days", "date_range=custom&from=2000-01-01&to=2000-01-05", "bob@example.com", 1},
		{"custom days, none", "from=2000-01-06&to=2000-01-07", "", 0},
		{"filters combine", "date_range=today&recovered=no", "", 0},
		{"e-mail prefix", "q=BOB", "bob@example.com", 1},
		{"paging", "per_page=1&page=2", "bob@example.com", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, r := s.abandoned(seller, tt.query)
			if r.status != 200 || abandonedEmails(l) != tt.want || l.Total != tt.total {
				t.Fatalf("%d got %q of %d, want %q of %d (%s)", r.status, abandonedEmails(l), l.Total, tt.want, tt.total, r.raw)
			}
		})
	}
	l, _ = s.abandoned(seller, "recovered=yes")
	if a := l.Data[0]; a.RecoveredAt == nil || a.OrderID == nil || *a.OrderID != res.OrderID || a.OrderNumber != res.Number {
		t.Fatalf("alice, recovered: %+v", a)
	}

	for _, b := range []struct{ query, field string }{{"recovered=maybe", "recovered"}, {"date_range=forever", "date_range"},
		{"from=2000-02-30", "from"}, {"per_page=0", "per_page"}} {
		t.Run("refuses "+b.query, func(t *testing.T) {
			if _, r := s.abandoned(seller, b.query); r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != b.field {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}
	if _, r := s.abandoned(seller, "recovered=maybe"); r.body.Message != abandoned.MsgBadRecovered {
		t.Fatalf("message: %s", r.raw)
	}

	t.Run("another seller sees none of them", func(t *testing.T) {
		if l, r := s.abandoned(s.login("seller", "veteran@example.com"), ""); r.status != 200 || l.Total != 0 {
			t.Fatalf("%d %s", r.status, r.raw)
		}
	})

	t.Run("a team member limited to other stores sees none of them", func(t *testing.T) {
		var storeID int64
		if err := s.app.DB.Get(&storeID, `SELECT id FROM stores WHERE slug = $1`, seed.DemoStoreSlug); err != nil {
			t.Fatal(err)
		}
		if _, err := s.app.DB.Exec(`UPDATE team_members SET store_ids = $1::bigint[] WHERE member_id = $2`,
			fmt.Sprintf("{%d}", storeID+100000), s.userID("team@example.com")); err != nil {
			t.Fatal(err)
		}
		if l, r := s.abandoned(s.switchInto("team@example.com"), ""); r.status != 200 || l.Total != 0 {
			t.Fatalf("%d %s", r.status, r.raw)
		}
	})

	t.Run("without get_orders it is refused", func(t *testing.T) {
		if _, r := s.abandoned(s.switchInto("support@example.com"), ""); r.status != 403 {
			t.Fatalf("%d %s", r.status, r.raw)
		}
	})
}
