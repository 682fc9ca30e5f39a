package schema_test

import (
	"context"
	"io/fs"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/schema"
)

// TestPromotionsMigration takes store discount codes of the old shape through migration 00068 and
// back: each becomes its owner's code for that store, codes of one seller differing in letter case
// merge into the oldest (for both stores), and going down gives each store its codes again.
func TestPromotionsMigration(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	ctx := context.Background()
	migrations, err := fs.Sub(schema.Migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db.DB, migrations, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 67); err != nil {
		t.Fatal(err)
	}
	var seller, a, b int64
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Get(&seller, `INSERT INTO users (name, email, password_hash) VALUES ('S', 's@example.com', 'x') RETURNING id`))
	must(db.Get(&a, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'A', 'a.example', 'shop-a') RETURNING id`, seller))
	must(db.Get(&b, `INSERT INTO stores (owner_id, name, domain, slug, currency) VALUES ($1, 'B', 'b.example', 'shop-b', 'EUR') RETURNING id`, seller))
	db.MustExec(`INSERT INTO discount_codes (store_id, code, kind, percent, created_at) VALUES
		($1, 'Save10', 'discount_with_percent', 10, now() - interval '2 days'),
		($2, 'SAVE10', 'discount_with_percent', 15, now() - interval '1 day'),
		($1, 'SHIPFREE', 'free', 5, now())`, a, b)
	if _, err := p.UpTo(ctx, 68); err != nil {
		t.Fatal(err)
	}
	var codes []struct {
		Code      string `db:"code"`
		Percent   int    `db:"percent"`
		AppliesTo string `db:"applies_to"`
		Stores    int    `db:"stores"`
		Seller    int64  `db:"seller_id"`
	}
	must(db.Select(&codes, `SELECT code, percent, applies_to, seller_id,
		(SELECT count(*) FROM discount_code_stores s WHERE s.discount_code_id = d.id) AS stores
		FROM discount_codes d ORDER BY code`))
	if len(codes) != 2 || codes[0].Code != "SHIPFREE" || codes[0].Percent != 0 || codes[0].Stores != 1 ||
		codes[1].Code != "Save10" || codes[1].Percent != 10 || codes[1].Stores != 2 ||
		codes[0].AppliesTo != "stores" || codes[1].Seller != seller {
		t.Fatalf("after 00068: %+v", codes)
	}
	if _, err := db.Exec(`INSERT INTO discount_codes (seller_id, code) VALUES ($1, 'save10')`, seller); err == nil {
		t.Error("a second code differing only in case was accepted")
	}
	if _, err := p.DownTo(ctx, 67); err != nil {
		t.Fatal(err)
	}
	var perStore []string
	must(db.Select(&perStore, `SELECT s.name || ':' || d.code FROM discount_codes d JOIN stores s ON s.id = d.store_id ORDER BY 1`))
	if len(perStore) != 3 || perStore[0] != "A:SHIPFREE" || perStore[1] != "A:Save10" || perStore[2] != "B:Save10" {
		t.Fatalf("after going down: %v", perStore)
	}
}
