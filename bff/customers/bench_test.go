package customers

import (
	"context"
	"testing"

	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// BenchmarkList reads the first page of a seller's customers, and a search by e-mail prefix, with
// 100,000 paid orders from 20,000 buyers in the account (and as many in another account), as the
// list's query runs: grouping every counted order of the account.
func BenchmarkList(b *testing.B) {
	db, _ := testinfra.Postgres(b)
	const seed = `
WITH u AS (
	INSERT INTO users (name, email, password_hash, roles, status) VALUES ($1, $2, 'x', '{seller}', 'verified') RETURNING id
), o AS (
	INSERT INTO orders (seller_id, number, email, customer_name, shipping_address, status, payment_status, total, created_at)
	SELECT u.id, g::text, 'buyer' || (g % 20000) || '@example.com', 'Buyer ' || (g % 20000), '{"country":"DE"}', 'pending', 'paid',
		1000 + g % 5000, now() - g * interval '1 minute'
	FROM u, generate_series(1, 100000) g RETURNING id, total
)
INSERT INTO payments (order_id, gateway, intent_id, idempotency_key, amount, currency, status)
SELECT id, 'test', $1 || id, $1 || id, total, 'USD', 'succeeded' FROM o`
	db.MustExec(seed, "bench", "bench@example.com")
	db.MustExec(seed, "other", "other@example.com")
	var seller int64
	if err := db.Get(&seller, `SELECT id FROM users WHERE email = 'bench@example.com'`); err != nil {
		b.Fatal(err)
	}
	db.MustExec(`ANALYZE`)
	s := store{db: db}
	sc := listing.Scope{SellerID: seller}
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		q    Query
	}{
		{"first page", Query{Sort: "last_order_at"}},
		{"by total spent", Query{Sort: "total_spent"}},
		{"e-mail prefix", Query{Sort: "last_order_at", Q: "buyer1234"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if items, total, err := s.list(ctx, sc, bc.q, 15, 0); err != nil || total == 0 || len(items) == 0 {
					b.Fatalf("%d %d %v", len(items), total, err)
				}
			}
		})
	}
}
