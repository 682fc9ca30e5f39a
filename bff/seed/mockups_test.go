package seed

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"testing"

	"github.com/pressroom/pressroom/renderer/chromepool/models"
	"github.com/pressroom/pressroom/renderer/mockup"
)

// TestMockupTemplates seeds twice and finds one mockup template row per demo template, on its
// product and print space, whose stored JSON is a flat template (at the tests' size; `bff seed`
// draws 2000 px) naming its stored images by blob key; then one row per demo 3D template naming its
// stored GLB model.
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

// TestDemoModelsFitTheirPrintSpaces: every catalogue product has a 3D template, and each template's
// model has a print area of its print space's aspect, so the design is not stretched on it.
func TestDemoModelsFitTheirPrintSpaces(t *testing.T) {
	has3D := map[string]bool{}
	for _, m := range demoModels {
		has3D[m.product] = true
		aspect, ok := models.PrintAspect[m.model]
		if !ok {
			t.Errorf("%s: model %q has no PrintAspect", m.name, m.model)
			continue
		}
		found := false
		for _, tpl := range demoTemplates {
			for _, s := range tpl.spaces {
				if tpl.name != m.product || s.Name != m.printSpace {
					continue
				}
				found = true
				if want := float64(s.Width) / float64(s.Height); math.Abs(aspect-want) > 0.01*want {
					t.Errorf("%s: model %s prints at aspect %.3f, print space %s is %dx%d (%.3f)",
						m.name, m.model, aspect, s.Name, s.Width, s.Height, want)
				}
			}
		}
		if !found {
			t.Errorf("%s: no print space %s on product %s", m.name, m.printSpace, m.product)
		}
	}
	for _, tpl := range demoTemplates {
		if !has3D[tpl.name] {
			t.Errorf("product %s has no 3D mockup template", tpl.name)
		}
	}
}
