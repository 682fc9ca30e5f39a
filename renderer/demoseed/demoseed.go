package demoseed

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"

	"github.com/jmoiron/sqlx"
	"golang.org/x/sync/errgroup"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/chromepool/models"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/mockup/demo"
)

// demoMockup is a demo flat mockup template of a catalogue product's print space.
// typeDetail is the product mockup type it is for; empty means any.
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

// demoModel is a demo 3D mockup template: a product's print space on a model of package
// renderer/chromepool/models, drawn by the renderer's Chrome pool.
type demoModel struct {
	product, printSpace, model, typeDetail, name string
}

// demoModels lists the demo 3D templates, shown after the flat ones: one per product, on its main
// print space, each model's print area of that print space's aspect. Editor saves draw them; bulk
// records do not (mockuptask.Queue), so a bulk record costs flat mockups only.
var demoModels = []demoModel{
	{product: "T-shirt", printSpace: "front", model: "tshirt", typeDetail: "tshirt", name: "T-shirt, 3D"},
	{product: "Hoodie", printSpace: "front", model: "hoodie", typeDetail: "hoodie", name: "Hoodie, 3D"},
	{product: "Mug wrap", printSpace: "wrap", model: "mug", typeDetail: "mug", name: "Mug, 3D"},
	{product: "Poster", printSpace: "front", model: "poster", name: "Poster, 3D"},
	{product: "All-over-print shirt", printSpace: "front", model: "tshirt", typeDetail: "aop_shirt", name: "All-over-print shirt, 3D"},
}

// TestMockupSide is the demo templates' photo size when Run is given 0: small enough to draw in a
// fraction of a second, so that every test seeding a fresh store stays quick.
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
func MockupTemplateKey(demoID, file string) string {
	return blob.MockupTemplatePrefix + demoID + "/" + file
}

// Run stores the demo mockup templates, their photos drawn side pixels wide (0: TestMockupSide;
// `renderer seed-demo` draws demo.DefaultSide), and the demo 3D models, and records them for the
// demo catalogue's products, which the bff's seed makes first (`bff seed`): the drawing is the
// renderer's work, so the bff links none of it. A template whose JSON is already stored at that
// size is not drawn again (drawing one at 2000 px takes seconds); the others are drawn at once,
// their images stored before their JSON. A product that already has the template keeps its row as
// it is. A product missing from the catalogue, or a model whose print area has not the aspect of
// its product's print space (the design would be stretched on it), is an error.
func Run(ctx context.Context, db *sqlx.DB, store blob.Store, side int) error {
	if db == nil || store == nil {
		return errors.New("demoseed: database and blob store are required")
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := seedMockups(ctx, tx, store, side); err != nil {
		return err
	}
	return tx.Commit()
}

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
	position := 0
	for i, m := range demoMockups {
		position++
		t := templates[i]
		meta, err := json.Marshal(map[string]any{"name": t.Name, "color": t.Color, "crop": t.Crop, "shadow": t.Shadow, "glb": ""})
		if err != nil {
			return err
		}
		if err := checkProduct(ctx, tx, m.product, m.printSpace, 0); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, insert, m.product, m.printSpace, m.typeDetail,
			MockupTemplateKey(m.demoID, "template.json"), string(meta), position); err != nil {
			return fmt.Errorf("seed mockup template %s: %w", m.demoID, err)
		}
	}
	for _, m := range demoModels {
		position++
		aspect, ok := models.PrintAspect[m.model]
		if !ok {
			return fmt.Errorf("seed 3D mockup template %s: model %q has no print aspect", m.name, m.model)
		}
		if err := checkProduct(ctx, tx, m.product, m.printSpace, aspect); err != nil {
			return err
		}
		key, err := storeDemoModel(ctx, store, m.model)
		if err != nil {
			return err
		}
		meta, err := json.Marshal(map[string]any{"name": m.name, "color": "", "crop": nil, "shadow": "", "glb": key})
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, insert, m.product, m.printSpace, m.typeDetail, key, string(meta), position); err != nil {
			return fmt.Errorf("seed 3D mockup template %s: %w", m.name, err)
		}
	}
	return nil
}

// checkProduct makes sure the catalogue has product with printSpace, of the given aspect (width
// over height, within 1%) unless aspect is 0.
func checkProduct(ctx context.Context, tx *sqlx.Tx, product, printSpace string, aspect float64) error {
	var spacesJSON string
	err := tx.GetContext(ctx, &spacesJSON, `SELECT print_spaces FROM product_templates WHERE name = $1`, product)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("seed mockup templates: no product template %q (run the bff's seed first)", product)
	}
	if err != nil {
		return fmt.Errorf("seed mockup templates: product template %q: %w", product, err)
	}
	var spaces []struct {
		Name          string
		Width, Height int
	}
	if err := json.Unmarshal([]byte(spacesJSON), &spaces); err != nil {
		return fmt.Errorf("seed mockup templates: print spaces of %q: %w", product, err)
	}
	for _, s := range spaces {
		if s.Name != printSpace {
			continue
		}
		if want := float64(s.Width) / float64(s.Height); aspect != 0 && math.Abs(aspect-want) > 0.01*want {
			return fmt.Errorf("seed mockup templates: a model prints %s of %s at aspect %.3f, its print space is %dx%d (%.3f)",
				printSpace, product, aspect, s.Width, s.Height, want)
		}
		return nil
	}
	return fmt.Errorf("seed mockup templates: product template %q has no print space %q", product, printSpace)
}

// storeDemoModel stores the GLB of demo model name (made in code, a few kilobytes) and returns its key.
func storeDemoModel(ctx context.Context, store blob.Store, name string) (string, error) {
	glb, err := models.Model(name)
	if err != nil {
		return "", err
	}
	key := MockupTemplateKey("3d-"+name, "model.glb")
	if err := store.Put(ctx, key, bytes.NewReader(glb), int64(len(glb)), "model/gltf-binary"); err != nil {
		return "", fmt.Errorf("seed 3D model %s: %w", name, err)
	}
	return key, nil
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
