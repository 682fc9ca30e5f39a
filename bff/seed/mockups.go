package seed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/jmoiron/sqlx"
	"golang.org/x/sync/errgroup"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/mockup/demo"
)

// demoMockup is a demo flat mockup template of a catalogue product's print space (issue 8).
// typeDetail is the product mockup type it is for; empty means any (spec §5).
type demoMockup struct {
	product, printSpace, demoID, typeDetail string
}

// demoMockups lists the drawn templates of the demo catalogue, in the order a product shows them.
var demoMockups = []demoMockup{
	{product: "T-shirt", printSpace: "front", demoID: "tshirt-front", typeDetail: "tshirt"},
	{product: "T-shirt", printSpace: "back", demoID: "tshirt-back", typeDetail: "tshirt"},
	{product: "Hoodie", printSpace: "front", demoID: "hoodie-front", typeDetail: "hoodie"},
	{product: "Mug wrap", printSpace: "wrap", demoID: "mug-wrap", typeDetail: "mug"},
	{product: "Poster", printSpace: "front", demoID: "poster"},
	{product: "All-over-print shirt", printSpace: "front", demoID: "aop-shirt-front", typeDetail: "aop_shirt"},
}

// TestMockupSide is the demo templates' photo size when Deps.MockupSide is 0: small enough to draw in
// a fraction of a second, so that every test seeding a fresh store stays quick.
const TestMockupSide = 256

// drawings keeps each demo template drawn once per process and size: drawing is deterministic and
// takes seconds at full size, and a process (a test binary) may seed many fresh stores.
var drawings sync.Map // drawingKey -> func() (demo.Set, error)

type drawingKey struct {
	id   string
	side int
}

// drawn draws demo template id at side pixels, once per process.
func drawn(id string, side int) (demo.Set, error) {
	f, _ := drawings.LoadOrStore(drawingKey{id, side}, sync.OnceValues(func() (demo.Set, error) { return demo.Draw(id, side) }))
	return f.(func() (demo.Set, error))()
}

// MockupTemplateKey is the blob key of a demo mockup template's file: its JSON (template.json) or
// one of its images.
func MockupTemplateKey(demoID, file string) string { return "mockup-templates/" + demoID + "/" + file }

// seedMockups stores the demo mockup templates and records them for the catalogue's products. A
// template whose JSON is already stored is not drawn again (drawing one at 2000 px takes seconds);
// the others are drawn at once, their images stored before their JSON. A product that already has
// the template keeps its row as it is.
func seedMockups(ctx context.Context, tx *sqlx.Tx, store blob.Store, side int) error {
	if side == 0 {
		side = TestMockupSide
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	templates := make([]*mockup.Template, len(demoMockups))
	for i, m := range demoMockups {
		g.Go(func() (err error) {
			templates[i], err = storeDemoMockup(gctx, store, m.demoID, side)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	const insert = `
INSERT INTO mockup_templates (template_id, print_space, type_detail, file_url, design_json, position)
SELECT id, $2, $3, $4, $5, $6 FROM product_templates WHERE name = $1
ON CONFLICT (template_id, file_url) DO NOTHING`
	for i, m := range demoMockups {
		t := templates[i]
		meta, err := json.Marshal(map[string]any{"name": t.Name, "color": t.Color, "crop": t.Crop, "shadow": t.Shadow, "glb": ""})
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, insert, m.product, m.printSpace, m.typeDetail,
			MockupTemplateKey(m.demoID, "template.json"), string(meta), i+1); err != nil {
			return fmt.Errorf("seed mockup template %s: %w", m.demoID, err)
		}
	}
	return nil
}

// storeDemoMockup draws demo template id with a side x side photo and stores it, its file names
// replaced by their blob keys, unless its JSON is stored already at that size; it returns the
// template as stored.
func storeDemoMockup(ctx context.Context, store blob.Store, id string, side int) (*mockup.Template, error) {
	jsonKey := MockupTemplateKey(id, "template.json")
	rc, _, err := store.Get(ctx, jsonKey)
	if err == nil {
		data, err := io.ReadAll(io.LimitReader(rc, mockup.MaxTemplateBytes+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("seed mockup template %s: read %s: %w", id, jsonKey, err)
		}
		if tpl, err := mockup.Parse(data); err == nil && tpl.Width == side {
			return tpl, nil
		}
	} else if !errors.Is(err, blob.ErrNotFound) {
		return nil, fmt.Errorf("seed mockup template %s: %w", id, err)
	}
	s, err := drawn(id, side)
	if err != nil {
		return nil, err
	}
	for name, data := range s.Files {
		if err := store.Put(ctx, MockupTemplateKey(id, name), bytes.NewReader(data), int64(len(data)), "image/png"); err != nil {
			return nil, fmt.Errorf("seed mockup template %s: store %s: %w", id, name, err)
		}
	}
	t := *s.Template
	for _, f := range []*string{&t.Base, &t.Shadow, &t.Mask, &t.Tint, &t.Displacement} {
		if *f != "" {
			*f = MockupTemplateKey(id, *f)
		}
	}
	data, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := store.Put(ctx, jsonKey, bytes.NewReader(data), int64(len(data)), "application/json"); err != nil {
		return nil, fmt.Errorf("seed mockup template %s: store %s: %w", id, jsonKey, err)
	}
	return &t, nil
}
