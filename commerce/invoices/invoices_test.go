package invoices

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// seller makes a seller with a store and returns their ids.
func seller(t *testing.T, db *sqlx.DB, name string) (int64, int64) {
	t.Helper()
	var id, store int64
	if err := db.Get(&id, `INSERT INTO users (name, email, password_hash, timezone) VALUES ($1, $1 || '@example.com', 'x', 'Europe/Berlin') RETURNING id`, name); err != nil {
		t.Fatal(err)
	}
	if err := db.Get(&store, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, $2 || ' Shop', $2 || '.example', $2) RETURNING id`, id, name); err != nil {
		t.Fatal(err)
	}
	return id, store
}

// paidOrder makes a paid order of two lines: 2 x 19.99 and 1 x 5.00, shipping 4.50, discount 3.00.
func paidOrder(t *testing.T, db *sqlx.DB, sellerID, storeID int64, number string) int64 {
	t.Helper()
	var id int64
	err := db.Get(&id, `INSERT INTO orders (seller_id, store_id, number, email, customer_name, shipping_address, currency,
		subtotal, shipping, discount, total, status, payment_status)
		VALUES ($1, $2, $3, 'ada@example.com', 'Ada Lovelace', '{"name":"Ada Lovelace","line1":"1 Analytical Way","city":"London","postal_code":"N1 9GU","country":"GB"}',
		'EUR', 4498, 450, 300, 4648, 'processing', 'paid') RETURNING id`, sellerID, storeID, number)
	if err != nil {
		t.Fatal(err)
	}
	db.MustExec(`INSERT INTO order_items (order_id, product_name, color, size, quantity, unit_price) VALUES
		($1, 'Mug "Morning"', 'White', '11oz', 2, 1999), ($1, 'Sticker', '', '', 1, 500)`, id)
	return id
}

func issue(t *testing.T, db *sqlx.DB, orderID int64) Invoice {
	t.Helper()
	tx, err := db.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	inv, err := Issue(context.Background(), tx, orderID)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return inv
}

// TestIssue: an order's invoice is numbered per seller, issuing again answers the same invoice and
// queues no second PDF, and the document carries the sale as paid.
func TestIssue(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	ada, adaStore := seller(t, db, "ada")
	bob, bobStore := seller(t, db, "bob")
	first := issue(t, db, paidOrder(t, db, ada, adaStore, "1001"))
	second := issue(t, db, paidOrder(t, db, ada, adaStore, "1002"))
	bobs := issue(t, db, paidOrder(t, db, bob, bobStore, "1001"))
	if first.Number != "INV-000001" || second.Number != "INV-000002" || bobs.Number != "INV-000001" {
		t.Errorf("numbers %s, %s and bob's %s; want INV-000001, INV-000002 and INV-000001", first.Number, second.Number, bobs.Number)
	}
	if again := issue(t, db, first.OrderID); again.ID != first.ID || again.Number != first.Number {
		t.Errorf("issuing again gave %+v; want the first invoice %+v", again, first)
	}
	var queued int
	if err := db.Get(&queued, `SELECT count(*) FROM task_outbox WHERE task_type = $1 AND convert_from(payload, 'UTF8')::jsonb->>'invoice_id' = $2`,
		tasks.TypeInvoicePDF, fmt.Sprint(first.ID)); err != nil {
		t.Fatal(err)
	}
	if queued != 1 {
		t.Errorf("%d PDF tasks queued for one invoice issued twice; want 1", queued)
	}

	doc, err := OfOrder(ctx, db, ada, first.OrderID)
	if err != nil {
		t.Fatal(err)
	}
	if doc.OrderNumber != "1001" || doc.Seller.Name != "ada Shop" || doc.Buyer.Name != "Ada Lovelace" || doc.TimeZone != "Europe/Berlin" {
		t.Errorf("document %+v", doc)
	}
	if len(doc.Lines) != 2 || doc.Lines[0].Amount.Amount != 3998 || doc.Lines[0].UnitPrice.Currency != "EUR" || doc.Lines[1].Amount.Amount != 500 {
		t.Errorf("lines %+v; want 2 x 19.99 = 39.98 EUR and 5.00", doc.Lines)
	}
	if doc.Subtotal.Amount != 4498 || doc.Shipping.Amount != 450 || doc.Discount.Amount != 300 || doc.Total.Amount != 4648 {
		t.Errorf("totals %+v %+v %+v %+v", doc.Subtotal, doc.Shipping, doc.Discount, doc.Total)
	}
	if _, err := OfOrder(ctx, db, bob, first.OrderID); !errors.Is(err, ErrNotFound) {
		t.Errorf("bob reading ada's invoice: %v; want ErrNotFound", err)
	}
	if got, err := Get(ctx, db, first.ID); err != nil || got.Number != first.Number {
		t.Errorf("Get(%d) = %+v, %v", first.ID, got.Invoice, err)
	}
}

// TestIssueConcurrently: 20 orders of one seller paid at once get INV-000001 to INV-000020, no number
// twice and none skipped; 8 issues of one order at once make one invoice.
func TestIssueConcurrently(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	id, store := seller(t, db, "cyd")
	const n = 20
	orders := make([]int64, n)
	for i := range orders {
		orders[i] = paidOrder(t, db, id, store, fmt.Sprint(2000+i))
	}
	db.SetMaxOpenConns(n + 1)
	run := func(orderIDs []int64) []Invoice {
		out := make([]Invoice, len(orderIDs))
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, o := range orderIDs {
			wg.Go(func() {
				<-start
				tx, err := db.BeginTxx(ctx, nil)
				if err != nil {
					t.Error(err)
					return
				}
				defer tx.Rollback()
				inv, err := Issue(ctx, tx, o)
				if err == nil {
					err = tx.Commit()
				}
				if err != nil {
					t.Error(err)
				}
				out[i] = inv
			})
		}
		close(start)
		wg.Wait()
		return out
	}
	var numbers []string
	for _, inv := range run(orders) {
		numbers = append(numbers, inv.Number)
	}
	slices.Sort(numbers)
	for i, got := range numbers {
		if want := Number(int64(i + 1)); got != want {
			t.Fatalf("numbers %v; want INV-000001 to INV-%06d, each once", numbers, n)
		}
	}

	one := paidOrder(t, db, id, store, "3000")
	same := run([]int64{one, one, one, one, one, one, one, one})
	var count int
	if err := db.Get(&count, `SELECT count(*) FROM invoices WHERE order_id = $1`, one); err != nil {
		t.Fatal(err)
	}
	if count != 1 || same[0].Number != Number(n+1) {
		t.Errorf("%d invoices for one order issued 8 times at once, the first numbered %s; want 1, %s", count, same[0].Number, Number(n+1))
	}
	for _, inv := range same {
		if inv.ID != same[0].ID {
			t.Errorf("concurrent issues answered invoices %d and %d", same[0].ID, inv.ID)
		}
	}
}
