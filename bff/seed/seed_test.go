package seed

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// seededTwice runs the seed twice on a fresh database and blob folder, as a second `bff seed` would,
// and returns them.
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
	}
	return db, store
}
