package testinfra

import (
	"testing"

	"github.com/jmoiron/sqlx"
)

// TestSnapshot: fill runs once, every copy starts with what it wrote, and a copy's writes stay its own.
func TestSnapshot(t *testing.T) {
	var snap Snapshot
	t.Cleanup(snap.Drop)
	fills := 0
	fill := func(db *sqlx.DB, _ string) error {
		fills++
		_, err := db.Exec(`CREATE TABLE filled (n int); INSERT INTO filled VALUES (1)`)
		return err
	}
	a, _ := snap.Postgres(t, fill)
	b, _ := snap.Postgres(t, fill)
	if fills != 1 {
		t.Fatalf("fill ran %d times, want once", fills)
	}
	a.MustExec(`INSERT INTO filled VALUES (2)`)
	for name, db := range map[string]*sqlx.DB{"a": a, "b": b} {
		var rows int
		if err := db.Get(&rows, `SELECT count(*) FROM filled`); err != nil {
			t.Fatal(err)
		}
		if want := map[string]int{"a": 2, "b": 1}[name]; rows != want {
			t.Errorf("copy %s holds %d rows, want %d", name, rows, want)
		}
	}
}
