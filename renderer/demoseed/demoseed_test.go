package demoseed

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/mockup"
)

// seededTwice runs Run twice on a fresh database holding the demo catalogue's products and on a
// fresh blob folder, as a second `renderer seed-demo` would, and returns them.
func seededTwice(t *testing.T) (*sqlx.DB, blob.Store) {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	const catalogue = `INSERT INTO product_templates (name, product_type, print_spaces) VALUES
	('T-shirt', 'tshirt', '[{"name": "front", "width": 4500, "height": 5400}, {"name": "back", "width": 4500, "height": 5400}]'),
	('Hoodie', 'hoodie', '[{"name": "front", "width": 4500, "height": 5400}, {"name": "back", "width": 4500, "height": 5400}]'),
	('Mug wrap', 'mug', '[{"name": "wrap", "width": 2700, "height": 1050}]'),
	('Poster', 'poster', '[{"name": "front", "width": 5400, "height": 7200}]'),
	('All-over-print shirt', 'aop_shirt', '[{"name": "front", "width": 4500, "height": 5400}]')`
	db.MustExec(catalogue)
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	store, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := Run(context.Background(), db, store, 0); err != nil {
			t.Fatal(err)
		}
	}
	return db, store
}

// TestMockupTemplates seeds twice and finds one mockup template row per demo template, on its
// product and print space, whose stored JSON is a flat template (at the tests' size; `renderer
// seed-demo` draws 2000 px) naming its stored images by blob key; then one row per demo 3D template
// naming its stored GLB model.
func TestMockupTemplates(t *testing.T) {
	db, store := seededTwice(t)
	ctx := context.Background()
	var rows []struct {
		Product    string `db:"name"`
		PrintSpace string `db:"print_space"`
		TypeDetail string `db:"type_detail"`
		FileURL    string `db:"file_url"`
		Meta       []byte `db:"design_json"`
	}
	const q = `SELECT p.name, m.print_space, m.type_detail, m.file_url, m.design_json FROM mockup_templates m
JOIN product_templates p ON p.id = m.template_id ORDER BY m.position, m.id`
	if err := db.Select(&rows, q); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(demoMockups)+len(demoModels) {
		t.Fatalf("%d mockup templates, want %d flat and %d 3D", len(rows), len(demoMockups), len(demoModels))
	}
	for i, r := range rows[len(demoMockups):] {
		want := demoModels[i]
		var meta struct {
			Name string `json:"name"`
			Glb  string `json:"glb"`
		}
		if err := json.Unmarshal(r.Meta, &meta); err != nil || meta.Name != want.name || meta.Glb != r.FileURL {
			t.Errorf("3D template %s: design_json %s (%v)", want.name, r.Meta, err)
		}
		if r.Product != want.product || r.PrintSpace != want.printSpace || r.TypeDetail != want.typeDetail {
			t.Errorf("3D template row %s %s %q, want %+v", r.Product, r.PrintSpace, r.TypeDetail, want)
		}
		rc, _, err := store.Get(ctx, r.FileURL)
		if err != nil {
			t.Fatal(err)
		}
		magic := make([]byte, 4)
		_, err = io.ReadFull(rc, magic)
		rc.Close()
		if err != nil || string(magic) != "glTF" {
			t.Errorf("3D template %s: %s starts %q (%v), want a GLB", want.name, r.FileURL, magic, err)
		}
	}
	for i, r := range rows[:len(demoMockups)] {
		want := demoMockups[i]
		if r.Product != want.product || r.PrintSpace != want.printSpace || r.TypeDetail != want.typeDetail ||
			r.FileURL != MockupTemplateKey(want.demoID, "template.json") {
			t.Errorf("row %d = %s %s %q %s, want %+v", i, r.Product, r.PrintSpace, r.TypeDetail, r.FileURL, want)
		}
		var meta struct {
			Name   string `json:"name"`
			Shadow string `json:"shadow"`
			Glb    string `json:"glb"`
		}
		if err := json.Unmarshal(r.Meta, &meta); err != nil || meta.Name == "" || meta.Glb != "" {
			t.Errorf("%s design_json %s (%v)", want.demoID, r.Meta, err)
		}
		rc, _, err := store.Get(ctx, r.FileURL)
		if err != nil {
			t.Fatal(err)
		}
		var data json.RawMessage
		err = json.NewDecoder(rc).Decode(&data)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		tpl, err := mockup.Parse(data)
		if err != nil || tpl.PrintSpace != want.printSpace || tpl.Width != TestMockupSide || meta.Shadow != tpl.Shadow {
			t.Fatalf("%s template: %+v (%v)", want.demoID, tpl, err)
		}
		for _, key := range []string{tpl.Base, tpl.Shadow, tpl.Mask, tpl.Tint, tpl.Displacement} {
			if key == "" {
				continue
			}
			if _, err := store.Stat(ctx, key); err != nil {
				t.Errorf("%s: image %s: %v", want.demoID, key, err)
			}
		}
	}
}

// TestRunRefusesAMismatchedCatalogue: a product missing from the catalogue, or a print space of
// another aspect than its model's print area, stops the seed rather than recording a template
// that draws nothing or a stretched design.
func TestRunRefusesAMismatchedCatalogue(t *testing.T) {
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	store, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	db, _ := testinfra.Postgres(t)
	if err := Run(context.Background(), db, store, 0); err == nil || !strings.Contains(err.Error(), "no product template") {
		t.Fatalf("Run without a catalogue = %v, want a missing product", err)
	}
	db.MustExec(`INSERT INTO product_templates (name, product_type, print_spaces) VALUES
	('T-shirt', 'tshirt', '[{"name": "front", "width": 4500, "height": 5400}, {"name": "back", "width": 4500, "height": 5400}]'),
	('Hoodie', 'hoodie', '[{"name": "front", "width": 4500, "height": 5400}, {"name": "back", "width": 4500, "height": 5400}]'),
	('Mug wrap', 'mug', '[{"name": "wrap", "width": 2700, "height": 2700}]'),
	('Poster', 'poster', '[{"name": "front", "width": 5400, "height": 7200}]'),
	('All-over-print shirt', 'aop_shirt', '[{"name": "front", "width": 4500, "height": 5400}]')`)
	if err := Run(context.Background(), db, store, 0); err == nil || !strings.Contains(err.Error(), "aspect") {
		t.Fatalf("Run with a square mug wrap = %v, want the model's aspect refused", err)
	}
	var n int
	if err := db.Get(&n, `SELECT count(*) FROM mockup_templates`); err != nil || n != 0 {
		t.Fatalf("a refused seed recorded %d templates (%v)", n, err)
	}
}
