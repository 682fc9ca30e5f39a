package seed

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
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
	for range 2 {
		if err := Run(context.Background(), Deps{DB: db, Store: store, Env: "test", BcryptCost: 10}); err != nil {
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
