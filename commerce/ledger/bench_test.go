package ledger_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// BenchmarkBalance reads the balances (as the billing summary does) and the first page of the statement of a seller with many
// entries (PRESSROOM_BENCH_LEDGER_ENTRIES, default 1,000,000; scripts/bench BENCH_ONLY=ledger). The
// balance is one row of running totals whatever the count; the page reads the newest entries by index
// and counts the matches.
func BenchmarkBalance(b *testing.B) {
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("PRESSROOM_BENCH_LEDGER_ENTRIES")); err == nil && v > 0 {
		n = v
	}
	db, _ := testinfra.Postgres(b)
	var seller int64
	if err := db.Get(&seller, `INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id`); err != nil {
		b.Fatal(err)
	}
	// n top-ups of 1.00, each with the balance after it, and the running totals they sum to.
	db.MustExec(`INSERT INTO ledger_entries (seller_id, currency, type, d_available, available_after, held_after, paying_after,
		owed_after, reference, description, idempotency_key, created_at)
		SELECT $1, 'USD', 'topup', 100, i * 100, 0, 0, 0, 'pi_' || i, 'Balance top-up of $1.00', 'bench:' || i,
		       now() - (($2 - i) * interval '1 second')
		FROM generate_series(1, $2) i`, seller, n)
	db.MustExec(`INSERT INTO ledger_balances (seller_id, currency, available) VALUES ($1, 'USD', $2)`, seller, int64(n)*100)
	db.MustExec(`ANALYZE ledger_entries`)
	b.Run("balance", func(b *testing.B) {
		for b.Loop() {
			bal, err := ledger.Balances(ctx, db, seller)
			if err != nil || len(bal) != 1 || bal[0].Currency != money.USD || bal[0].Available != int64(n)*100 {
				b.Fatalf("%+v %v", bal, err)
			}
		}
	})
	// The transactions list's first page as the API answers it: the page and the count of matches.
	b.Run("transactions-page", func(b *testing.B) {
		f := ledger.EntryFilter{SellerID: seller}
		for b.Loop() {
			if page, total, err := ledger.Entries(ctx, db, f, 15, 0); err != nil || total != n || len(page) != 15 {
				b.Fatalf("%d %d %v", len(page), total, err)
			}
		}
	})
}
