package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/dpi"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/raster"
	"github.com/pressroom/pressroom/renderer/tasks"
)

type fixture struct {
	db         *sqlx.DB
	store      blob.Store
	h          *Handler
	campaignID int64
	productID  int64
}

// newFixture is a database with one campaign and product, a local blob store in a temporary
// folder holding a 450x540 red artwork at u/1/art.png, and the handler.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	store, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(db, store, imagelimit.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, store: store, h: h}
	const seed = `
WITH u AS (INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id),
t AS (INSERT INTO product_templates (name, product_type, print_spaces) VALUES ('T-shirt', 'tshirt', '[]') RETURNING id),
c AS (INSERT INTO campaigns (user_id, name) SELECT id, 'C' FROM u RETURNING id)
INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces)
SELECT c.id, t.id, 'T-shirt', 'tshirt', '[]' FROM c, t RETURNING campaign_id, id`
	if err := db.QueryRow(seed).Scan(&f.campaignID, &f.productID); err != nil {
		t.Fatal(err)
	}
	art := image.NewNRGBA(image.Rect(0, 0, 450, 540))
	for i := 0; i < len(art.Pix); i += 4 {
		copy(art.Pix[i:], []byte{220, 20, 30, 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, art); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(context.Background(), "u/1/art.png", &buf, int64(buf.Len()), "image/png"); err != nil {
		t.Fatal(err)
	}
	return f
}

// document is a design of a w x h print space at 300 DPI with the artwork src covering its middle
// and a text.
func document(w, h int, src string) string {
	return fmt.Sprintf(`{"version": 1, "printSpace": {"name": "front", "width": %d, "height": %d, "dpi": 300, "minDpi": 150, "printType": 0},
 "objects": [
  {"type": "image", "id": "art", "src": %q, "x": %d, "y": %d, "width": %d, "height": %d, "rotation": 0},
  {"type": "text", "id": "t", "text": "Hello", "fontFamily": "Roboto", "fontUrl": "", "fontSize": %d, "fill": "#111111",
   "x": 0, "y": 0, "width": %d, "rotation": 0, "textWidth": "limited", "textAlign": "center", "maxLength": 16,
   "convertText": "uppercase", "displayStyle": "color", "backgroundUrl": "", "isCustom": true}]}`,
		w, h, src, w/4, h/4, w/2, h/2, h/20, w)
}

// design inserts a pending design of doc at revision and returns its id.
func (f *fixture) design(t *testing.T, space, doc string, revision int64) int64 {
	t.Helper()
	var id int64
	const q = `INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, revision, export_status)
VALUES ($1, $2, $3, $4::jsonb, $5, 'pending') RETURNING id`
	if err := f.db.Get(&id, q, f.campaignID, f.productID, space, doc, revision); err != nil {
		t.Fatal(err)
	}
	return id
}

type stateRow struct {
	Revision   int64      `db:"revision"`
	Status     string     `db:"export_status"`
	FileURL    string     `db:"file_url"`
	Width      int        `db:"width"`
	Height     int        `db:"height"`
	DPI        float64    `db:"dpi"`
	FileSize   int64      `db:"file_size"`
	Report     []byte     `db:"export_report"`
	Error      string     `db:"export_error"`
	ExportedAt *time.Time `db:"exported_at"`
}

func (f *fixture) state(t *testing.T, id int64) stateRow {
	t.Helper()
	var r stateRow
	const q = `SELECT revision, export_status, file_url, width, height, dpi, file_size, export_report, export_error, exported_at
FROM campaign_designs WHERE id = $1`
	if err := f.db.Get(&r, q, id); err != nil {
		t.Fatal(err)
	}
	return r
}

// stored reads the object under key.
func (f *fixture) stored(t *testing.T, key string) []byte {
	t.Helper()
	r, _, err := f.store.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decode reads the PNG stored under key.
func (f *fixture) decode(t *testing.T, key string) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(f.stored(t, key)))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func (f *fixture) run(t *testing.T, id, revision int64) error {
	t.Helper()
	job, err := tasks.NewExportJob(id, revision, queue.Interactive)
	if err != nil {
		t.Fatal(err)
	}
	return f.h.ProcessTask(context.Background(), job.Task())
}

func TestExportWritesThePrintFileOnce(t *testing.T) {
	f := newFixture(t)
	id := f.design(t, "front", document(4500, 5400, "u/1/art.png"), 1)
	if err := f.run(t, id, 1); err != nil {
		t.Fatal(err)
	}
	got := f.state(t, id)
	key := tasks.PrintKey(f.campaignID, id, 1)
	if got.Status != tasks.ExportDone || got.FileURL != key || got.Width != 4500 || got.Height != 5400 || got.DPI != 300 ||
		got.Error != "" || got.ExportedAt == nil {
		t.Fatalf("row after export = %+v", got)
	}
	var rep raster.Report
	if err := json.Unmarshal(got.Report, &rep); err != nil || rep.Width != 4500 || rep.Height != 5400 || len(rep.DPI.Objects) != 1 || rep.DPI.Quality != dpi.Low {
		t.Fatalf("report %s: %v", got.Report, err)
	}
	r, info, err := f.store.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	body := new(bytes.Buffer)
	body.ReadFrom(r)
	r.Close()
	if info.Size != got.FileSize || int64(body.Len()) != got.FileSize {
		t.Fatalf("file_size %d, stored %d bytes", got.FileSize, body.Len())
	}
	x, y, ok, err := dpi.Declared(bytes.NewReader(body.Bytes()))
	if err != nil || !ok || x != 300 || y != 300 {
		t.Fatalf("declared DPI %v x %v (%v, %v), want 300", x, y, ok, err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(body.Bytes()))
	if err != nil || cfg.Width != 4500 || cfg.Height != 5400 || cfg.ColorModel != color.NRGBAModel {
		t.Fatalf("print file is %+v (%v), want 4500x5400 RGBA", cfg, err)
	}
	// beside it the mockup source: the same picture at half the size
	source := f.decode(t, tasks.MockupSourceKey(key))
	if b := source.Bounds(); b.Dx() != 2250 || b.Dy() != 2700 {
		t.Fatalf("mockup source is %v, want 2250x2700", b)
	}
	if c := color.NRGBAModel.Convert(source.At(1125, 1350)).(color.NRGBA); c != (color.NRGBA{220, 20, 30, 255}) {
		t.Fatalf("mockup source's artwork pixel = %v", c)
	}

	// The same task again (Asynq delivers at least once) writes nothing new.
	if err := f.run(t, id, 1); err != nil {
		t.Fatal(err)
	}
	again := f.state(t, id)
	info2, err := f.store.Stat(context.Background(), key)
	if err != nil || !info2.ModTime.Equal(info.ModTime) || !again.ExportedAt.Equal(*got.ExportedAt) {
		t.Fatalf("second run rewrote the result: %v -> %v, %v -> %v (%v)", info.ModTime, info2.ModTime, got.ExportedAt, again.ExportedAt, err)
	}
}

func TestExportOfALaterRevisionReplacesTheOldFile(t *testing.T) {
	f := newFixture(t)
	id := f.design(t, "front", document(450, 540, "u/1/art.png"), 1)
	if err := f.run(t, id, 1); err != nil {
		t.Fatal(err)
	}
	// The artwork covers the middle; the corners outside it stay transparent.
	img := f.decode(t, tasks.PrintKey(f.campaignID, id, 1))
	if c := color.NRGBAModel.Convert(img.At(225, 270)).(color.NRGBA); c != (color.NRGBA{220, 20, 30, 255}) {
		t.Fatalf("artwork pixel = %v", c)
	}
	if _, _, _, a := img.At(440, 530).RGBA(); a != 0 {
		t.Fatalf("corner alpha = %d, want transparent", a)
	}
	// The bff saves a changed document: revision 2, pending, the old file still recorded.
	if _, err := f.db.Exec(`UPDATE campaign_designs SET revision = 2, export_status = 'pending' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	// A late delivery of revision 1 does nothing.
	if err := f.run(t, id, 1); err != nil {
		t.Fatal(err)
	}
	if got := f.state(t, id); got.Status != tasks.ExportPending || got.Revision != 2 {
		t.Fatalf("stale task changed the row: %+v", got)
	}
	if err := f.run(t, id, 2); err != nil {
		t.Fatal(err)
	}
	if got := f.state(t, id); got.Status != tasks.ExportDone || got.FileURL != tasks.PrintKey(f.campaignID, id, 2) {
		t.Fatalf("row = %+v", got)
	}
	for _, old := range []string{tasks.PrintKey(f.campaignID, id, 1), tasks.MockupSourceKey(tasks.PrintKey(f.campaignID, id, 1))} {
		if _, err := f.store.Stat(context.Background(), old); !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("old %s: %v, want deleted", old, err)
		}
	}
	if _, err := f.store.Stat(context.Background(), tasks.MockupSourceKey(tasks.PrintKey(f.campaignID, id, 2))); err != nil {
		t.Fatalf("mockup source of revision 2: %v", err)
	}
}

func TestExportOfAStaleRevisionDoesNothing(t *testing.T) {
	f := newFixture(t)
	id := f.design(t, "front", document(450, 540, "u/1/art.png"), 3)
	if err := f.run(t, id, 2); err != nil {
		t.Fatal(err)
	}
	if got := f.state(t, id); got.Status != tasks.ExportPending || got.FileURL != "" {
		t.Fatalf("row = %+v", got)
	}
	if _, err := f.store.Stat(context.Background(), tasks.PrintKey(f.campaignID, id, 2)); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("stale revision wrote a file: %v", err)
	}
	// A design removed since the task was queued is nothing to do either.
	if err := f.run(t, id+1000, 1); err != nil {
		t.Fatalf("missing design: %v", err)
	}
}

func TestExportFailures(t *testing.T) {
	tests := []struct {
		name, doc, wantMsg string
	}{
		{name: "missing artwork", doc: document(450, 540, "u/1/gone.png"), wantMsg: MsgMissingArtwork},
		{name: "web address", doc: document(450, 540, "https://example.com/art.png"), wantMsg: MsgNotBlobKey},
		{name: "invalid document", doc: `{"version": 2, "printSpace": {"width": 10, "height": 10, "dpi": 300, "minDpi": 150}, "objects": []}`,
			wantMsg: MsgCannotRender},
	}
	f := newFixture(t)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := f.design(t, fmt.Sprint("space", i), tt.doc, 1)
			err := f.run(t, id, 1)
			if !errors.Is(err, asynq.SkipRetry) {
				t.Fatalf("err = %v, want SkipRetry", err)
			}
			got := f.state(t, id)
			if got.Status != tasks.ExportFailed || !strings.HasPrefix(got.Error, tt.wantMsg) || got.FileURL != "" {
				t.Fatalf("row = %+v, want failed with %q", got, tt.wantMsg)
			}
			// Delivered again, a failed revision stays failed without rendering.
			if err := f.run(t, id, 1); err != nil {
				t.Fatalf("second delivery: %v", err)
			}
		})
	}
}

func TestMalformedPayload(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{`{`, `{"design_id": 0, "revision": 1}`, `{"design_id": 1}`} {
		if err := f.h.ProcessTask(context.Background(), asynq.NewTask(tasks.TypeExport, []byte(p))); !errors.Is(err, asynq.SkipRetry) {
			t.Errorf("payload %s: err = %v, want SkipRetry", p, err)
		}
	}
}

func TestNewExportJob(t *testing.T) {
	job, err := tasks.NewExportJob(42, 7, queue.Bulk)
	if err != nil {
		t.Fatal(err)
	}
	if job.Type != tasks.TypeExport || job.TaskID != "export-42-r7" || job.Queue != "renderer.bulk" || job.MaxRetry != 5 ||
		job.Timeout != 10*time.Minute || string(job.Payload) != `{"design_id":42,"revision":7}` {
		t.Fatalf("job = %+v", job)
	}
	if k := tasks.PrintKey(3, 42, 7); k != "print/3/42_r7.png" || blob.ValidateKey(k) != nil {
		t.Fatalf("PrintKey = %q", k)
	}
}
