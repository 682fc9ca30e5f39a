package seed

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/seal"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/demoseed"
)

// seededTwice runs the seed twice on a fresh database and blob folder, as a second `bff seed` and
// `renderer seed-demo` would, and returns them.
func seededTwice(t *testing.T) (*sqlx.DB, blob.Store) {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	store, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	box, err := seal.New(seal.DevPaymentKey)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := Run(context.Background(), Deps{DB: db, Store: store, Env: "test", BcryptCost: 10, Box: box}); err != nil {
			t.Fatal(err)
		}
		// the renderer's half: it checks every demo model against the catalogue's print spaces
		if err := demoseed.Run(context.Background(), db, store, 0); err != nil {
			t.Fatal(err)
		}
	}
	return db, store
}

// TestEveryProductHasA3DMockupTemplate: the renderer's demo seed gives every catalogue product a 3D
// template (demoseed.Run refuses one whose model does not fit its print space).
func TestEveryProductHasA3DMockupTemplate(t *testing.T) {
	db, _ := seededTwice(t)
	var missing []string
	const q = `SELECT p.name FROM product_templates p WHERE NOT EXISTS (
	SELECT 1 FROM mockup_templates m WHERE m.template_id = p.id AND coalesce(m.design_json->>'glb', '') <> '') ORDER BY p.name`
	if err := db.Select(&missing, q); err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Fatalf("products without a 3D mockup template: %q", missing)
	}
}

// TestDemoSellerIsPaidToAConfirmedAccount: the demo seller has one valid default payment account,
// however often the seed runs, so Billing & Payouts works in a fresh stack.
func TestDemoSellerIsPaidToAConfirmedAccount(t *testing.T) {
	db, _ := seededTwice(t)
	var accounts []struct {
		Label   string `db:"label"`
		Status  string `db:"status"`
		Default bool   `db:"is_default"`
	}
	const q = `SELECT a.label, a.status, a.is_default FROM payment_accounts a JOIN users u ON u.id = a.seller_id
WHERE u.email = 'seller@example.com'`
	if err := db.Select(&accounts, q); err != nil {
		t.Fatal(err)
	}
	if len(accounts) != 1 || accounts[0].Status != "valid" || !accounts[0].Default || accounts[0].Label != "Bank transfer · First Demo Bank · ••••••••6789" {
		t.Fatalf("the demo seller's payment accounts: %+v", accounts)
	}
}
