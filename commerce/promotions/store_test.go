package promotions

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/platform/testinfra"
)

// TestReserveConcurrently: 20 checkouts reserve a single-use code at the same instant, each in its
// own transaction. One reservation is written; the 19 others are refused as used up.
func TestReserveConcurrently(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	var seller, store int64
	if err := db.Get(&seller, `INSERT INTO users (name, email, password_hash) VALUES ('S', 's@example.com', 'x') RETURNING id`); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&store, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'S', 's.example', 'shop') RETURNING id`, seller); err != nil {
		t.Fatal(err)
	}
	db.MustExec(`INSERT INTO discount_codes (seller_id, code, kind, percent, usage_limit) VALUES ($1, 'OnlyOne', 'discount_with_percent', 20, 1)`, seller)
	const buyers = 20
	db.SetMaxOpenConns(buyers + 1) // every buyer holds its transaction open at once
	var wg sync.WaitGroup
	var mu sync.Mutex
	reserved, usedUp := 0, 0
	ready, start := sync.WaitGroup{}, make(chan struct{})
	ready.Add(buyers)
	for i := range buyers {
		var checkout string
		if err := db.Get(&checkout, `INSERT INTO checkouts (id, store_id, email, address, lines, currency, subtotal, shipping, discount, tip, total)
			VALUES (gen_random_uuid(), $1, $2, '{}', '[]', 'USD', 2000, 0, 0, 0, 2000) RETURNING id`, store, fmt.Sprintf("b%d@example.com", i)); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			tx, err := db.BeginTxx(ctx, nil)
			if err != nil {
				t.Error(err)
				ready.Done()
				return
			}
			defer tx.Rollback()
			tx.ExecContext(ctx, `SELECT 1`)
			ready.Done()
			<-start
			err = Reserve(ctx, tx, checkout, "onlyone", Cart{StoreID: store, Email: fmt.Sprintf("b%d@example.com", i), Subtotal: usd(2000)})
			if err == nil {
				err = tx.Commit()
			}
			var r *RefusedError
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				reserved++
			case errors.As(err, &r) && r.Reason == ReasonUsedUp:
				usedUp++
			default:
				t.Error(err)
			}
		}()
	}
	ready.Wait()
	close(start)
	wg.Wait()
	var uses int
	if err := db.Get(&uses, `SELECT count(*) FROM discount_code_uses`); err != nil {
		t.Fatal(err)
	}
	if reserved != 1 || usedUp != buyers-1 || uses != 1 {
		t.Errorf("reserved %d, used up %d, %d uses", reserved, usedUp, uses)
	}
}
