package mockuptask

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/membudget"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

type fixture struct {
	db                             *sqlx.DB
	store                          blob.Store
	h                              *Handler
	campaignID, productID, design  int64
	tshirt, anyType, hoodie, back3 int64 // mockup templates: type_detail tshirt, empty, hoodie; a 3D one
}

// put stores data under key.
func put(t *testing.T, store blob.Store, key string, data []byte) {
	t.Helper()
	if err := store.Put(context.Background(), key, bytes.NewReader(data), int64(len(data)), "application/octet-stream"); err != nil {
		t.Fatal(err)
	}
}

// solid is a PNG of w x h pixels of one colour.
func solid(t *testing.T, w, h int, c color.NRGBA) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:], []byte{c.R, c.G, c.B, c.A})
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// photos are the template's 2000 px base and tint map, encoded once per test binary (a second each
// under the race detector).
var photos = func() func(t *testing.T) struct{ base, tint []byte } {
	var once sync.Once
	var p struct{ base, tint []byte }
	return func(t *testing.T) struct{ base, tint []byte } {
		once.Do(func() {
			p.base = solid(t, 2000, 2000, color.NRGBA{200, 200, 200, 255})
			p.tint = solid(t, 2000, 2000, color.NRGBA{255, 255, 255, 255})
		})
		return p
	}
}()

// newFixture is a T-shirt product (mockup type tshirt, default colour Black) in a campaign with a
// front design at revision 1 whose 450x540 red print file is done, and four front mockup templates:
// for T-shirts, for any product, for hoodies, and a 3D one. The flat templates are a plain grey
// 2000 px photo with the print area in its middle, tinted everywhere.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	store, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(db, store, mockup.Config{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, store: store, h: h}
	photo := photos(t)
	put(t, store, "tpl/base.png", photo.base)
	put(t, store, "tpl/tint.png", photo.tint)
	tpl := mockup.Template{Version: 1, ID: "plain", Name: "Plain", PrintSpace: "front", Width: 2000, Height: 2000,
		Base: "tpl/base.png", Tint: "tpl/tint.png", Sizes: []int{2000, 500},
		Quad: [4]mockup.Point{{X: 500, Y: 500}, {X: 1500, Y: 500}, {X: 1500, Y: 1700}, {X: 500, Y: 1700}}}
	data, err := json.Marshal(tpl)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"a", "b", "c"} {
		put(t, store, "tpl/"+dir+"/template.json", data)
	}
	put(t, store, "print/1/front.png", solid(t, 450, 540, color.NRGBA{220, 20, 30, 255}))
	const seed = `
WITH u AS (INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id),
t AS (INSERT INTO product_templates (name, product_type, print_spaces, mockup_type, options, default_option)
	VALUES ('T-shirt', 'tshirt', '[]', 'tshirt', '{"colors":[{"name":"White","hex":"#ffffff"},{"name":"Black","hex":"#111111"}]}', 'Black') RETURNING *),
c AS (INSERT INTO campaigns (user_id, name) SELECT id, 'C' FROM u RETURNING id)
INSERT INTO campaign_products (campaign_id, template_id, name, product_type, print_spaces, mockup_type, options, default_option)
SELECT c.id, t.id, t.name, t.product_type, t.print_spaces, t.mockup_type, t.options, t.default_option FROM c, t
RETURNING campaign_id, id`
	if err := db.QueryRow(seed).Scan(&f.campaignID, &f.productID); err != nil {
		t.Fatal(err)
	}
	const tplRow = `INSERT INTO mockup_templates (template_id, print_space, type_detail, file_url, design_json, position)
SELECT template_id, 'front', $2, $3, $4, $5 FROM campaign_products WHERE id = $1 RETURNING id`
	for i, m := range []struct {
		id           *int64
		detail, meta string
	}{
		{&f.tshirt, "tshirt", `{"name": "Plain", "glb": ""}`},
		{&f.anyType, "", `{"name": "Plain"}`},
		{&f.hoodie, "hoodie", `{"name": "Plain"}`},
		{&f.back3, "", `{"name": "3D", "glb": "tpl/shirt.glb"}`},
	} {
		if err := db.Get(m.id, tplRow, f.productID, m.detail, "tpl/"+string(rune('a'+i))+"/template.json", m.meta, i+1); err != nil {
			t.Fatal(err)
		}
	}
	const design = `INSERT INTO campaign_designs (campaign_id, product_id, print_space, design_json, export_status, file_url)
VALUES ($1, $2, 'front', '{}', 'done', 'print/1/front.png') RETURNING id`
	if err := db.Get(&f.design, design, f.campaignID, f.productID); err != nil {
		t.Fatal(err)
	}
	return f
}

// queue runs Queue for the design's revision in a transaction of its own.
func (f *fixture) queue(t *testing.T, revision int64, p queue.Priority) []int64 {
	t.Helper()
	tx, err := f.db.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	ids, err := Queue(context.Background(), tx, f.design, revision, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return ids
}

type mockupRow struct {
	ID         int64  `db:"id"`
	TemplateID int64  `db:"mockup_template_id"`
	Revision   int64  `db:"design_revision"`
	Default    bool   `db:"is_default_mockup"`
	FileURL    string `db:"file_url"`
	Status     string `db:"status"`
	Error      string `db:"error"`
}

func (f *fixture) mockups(t *testing.T) []mockupRow {
	t.Helper()
	var rows []mockupRow
	const q = `SELECT id, mockup_template_id, design_revision, is_default_mockup, file_url, status, error
FROM campaign_mockups WHERE product_id = $1 ORDER BY mockup_template_id`
	if err := f.db.Select(&rows, q, f.productID); err != nil {
		t.Fatal(err)
	}
	return rows
}

func (f *fixture) run(t *testing.T, mockupID, revision int64) error {
	t.Helper()
	job, err := tasks.NewMockupJob(false, mockupID, revision, 0, queue.Interactive)
	if err != nil {
		t.Fatal(err)
	}
	return f.h.ProcessTask(context.Background(), job.Task())
}

// outboxTask is a task Queue added to the outbox.
type outboxTask struct {
	Type    string `db:"task_type"`
	Queue   string `db:"queue"`
	TaskID  string `db:"task_id"`
	Payload []byte `db:"payload"`
}

// outbox reads the outbox queued of ids, in order.
func (f *fixture) outbox(t *testing.T, ids []int64) []outboxTask {
	t.Helper()
	var queued []outboxTask
	if err := f.db.Select(&queued, `SELECT task_type, queue, task_id, payload FROM task_outbox WHERE id = ANY($1) ORDER BY id`, ids); err != nil {
		t.Fatal(err)
	}
	return queued
}

func TestQueueTakesTheApplicableTemplates(t *testing.T) {
	f := newFixture(t)
	outboxIDs := f.queue(t, 1, queue.Interactive)
	rows := f.mockups(t)
	// type_detail equal to the product's mockup type, or empty; the 3D template too
	if len(rows) != 3 || rows[0].TemplateID != f.tshirt || rows[1].TemplateID != f.anyType || rows[2].TemplateID != f.back3 {
		t.Fatalf("mockups = %+v, want the tshirt, the any-type and the 3D template", rows)
	}
	if !rows[0].Default || rows[1].Default || rows[2].Default || rows[0].Status != tasks.MockupPending || rows[0].Revision != 1 {
		t.Fatalf("mockups = %+v, want pending, the first one default", rows)
	}
	queued := f.outbox(t, outboxIDs)
	want := []struct{ typ, id string }{
		{tasks.TypeMockup, "mockup-" + itoa(rows[0].ID) + "-r1"},
		{tasks.TypeMockup, "mockup-" + itoa(rows[1].ID) + "-r1"},
		{tasks.TypeMockup3D, "mockup3d-" + itoa(rows[2].ID) + "-r1"},
	}
	if len(queued) != len(want) {
		t.Fatalf("outbox = %+v, want %v", queued, want)
	}
	for i, w := range want {
		if queued[i].Type != w.typ || queued[i].TaskID != w.id || queued[i].Queue != "renderer.interactive" {
			t.Errorf("outbox task %d = %+v, want %s %s on renderer.interactive", i, queued[i], w.typ, w.id)
		}
	}
	// A revision the design is not at queues nothing.
	if ids := f.queue(t, 7, queue.Interactive); len(ids) != 0 {
		t.Fatalf("queue of a revision the design is not at added %v", ids)
	}
}

// TestQueueBulkStaysFlat: a bulk record's mockups are the flat ones only, no row and no
// render:mockup3d for the product's 3D template; the seller's next save in the editor queues it.
func TestQueueBulkStaysFlat(t *testing.T) {
	f := newFixture(t)
	queued := f.outbox(t, f.queue(t, 1, queue.Bulk))
	rows := f.mockups(t)
	if len(rows) != 2 || rows[0].TemplateID != f.tshirt || rows[1].TemplateID != f.anyType || !rows[0].Default {
		t.Fatalf("mockups = %+v, want the tshirt (default) and the any-type template only", rows)
	}
	if len(queued) != 2 {
		t.Fatalf("outbox = %+v, want two flat mockup queued", queued)
	}
	for i, task := range queued {
		if task.Type != tasks.TypeMockup || task.Queue != "renderer.bulk" {
			t.Errorf("outbox task %d = %+v, want %s on renderer.bulk", i, task, tasks.TypeMockup)
		}
	}

	f.db.MustExec(`UPDATE campaign_designs SET revision = 2 WHERE id = $1`, f.design)
	queued = f.outbox(t, f.queue(t, 2, queue.Interactive))
	rows = f.mockups(t)
	if len(rows) != 3 || rows[2].TemplateID != f.back3 || rows[2].Revision != 2 || rows[2].Status != tasks.MockupPending {
		t.Fatalf("mockups after an editor save = %+v, want the 3D one too", rows)
	}
	want := "mockup3d-" + itoa(rows[2].ID) + "-r2"
	if len(queued) != 3 || queued[2].Type != tasks.TypeMockup3D || queued[2].TaskID != want || queued[2].Queue != "renderer.interactive" {
		t.Fatalf("outbox after an editor save = %+v, want %s %s on renderer.interactive last", queued, tasks.TypeMockup3D, want)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// storedPNG reads and decodes the PNG stored under key. With PRESSROOM_TEST_DUMP naming a folder, it
// also writes the file there as name, for a look at what the test saw.
func (f *fixture) storedPNG(t *testing.T, key, name string) image.Image {
	t.Helper()
	r, _, err := f.store.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("PRESSROOM_TEST_DUMP"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decode %s: %v", key, err)
	}
	return img
}

func TestMockupIsRenderedOnce(t *testing.T) {
	f := newFixture(t)
	f.queue(t, 1, queue.Interactive)
	m := f.mockups(t)[0]
	if err := f.run(t, m.ID, 1); err != nil {
		t.Fatal(err)
	}
	got := f.mockups(t)[0]
	key := blob.MockupKey(f.campaignID, f.tshirt, f.productID)
	if got.Status != tasks.MockupDone || got.FileURL != key || got.Error != "" {
		t.Fatalf("row after render = %+v", got)
	}
	img := f.storedPNG(t, key, "mockup.png")
	if img.Bounds().Dx() != mockup.DefaultSize || img.Bounds().Dy() != mockup.DefaultSize {
		t.Fatalf("mockup %v, want %d px square", img.Bounds(), mockup.DefaultSize)
	}
	info, err := f.store.Stat(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	// the print in the middle of the quad, the photo tinted by the product's Black outside it
	if c := color.RGBAModel.Convert(img.At(1000, 1100)).(color.RGBA); c.R < 200 || c.G > 40 {
		t.Errorf("print area pixel = %v, want the print's red", c)
	}
	if c := color.RGBAModel.Convert(img.At(100, 100)).(color.RGBA); c.R > 30 || c.G > 30 {
		t.Errorf("photo pixel = %v, want the base tinted black", c)
	}
	// the preview beside it: the same picture, 500 px, WebP; none from a build without cgo
	// (CGO_ENABLED=0 go test -run TestMockupIsRenderedOnce), which has no WebP encoder
	var previewKey string
	if err := f.db.Get(&previewKey, `SELECT preview_url FROM campaign_mockups WHERE id = $1`, m.ID); err != nil {
		t.Fatal(err)
	}
	want := blob.MockupPreviewKey(f.campaignID, f.tshirt, f.productID)
	if !webpenc.Available {
		want = ""
	}
	if previewKey != want {
		t.Fatalf("preview_url = %q, want %q", previewKey, want)
	}
	if !webpenc.Available {
		return
	}
	pr, _, err := f.store.Get(context.Background(), previewKey)
	if err != nil {
		t.Fatal(err)
	}
	preview, err := webp.Decode(pr)
	pr.Close()
	if err != nil || preview.Bounds().Dx() != mockup.PreviewSize || preview.Bounds().Dy() != mockup.PreviewSize {
		t.Fatalf("preview %v (%v), want a %d px square WebP", preview, err, mockup.PreviewSize)
	}
	if c := color.RGBAModel.Convert(preview.At(250, 275)).(color.RGBA); c.R < 190 || c.G > 60 {
		t.Errorf("preview print area pixel = %v, want the print's red", c)
	}
	if c := color.RGBAModel.Convert(preview.At(25, 25)).(color.RGBA); c.R > 40 || c.G > 40 {
		t.Errorf("preview photo pixel = %v, want the base tinted black", c)
	}
	// delivered again: nothing is rendered or written
	if err := f.run(t, m.ID, 1); err != nil {
		t.Fatal(err)
	}
	info2, err := f.store.Stat(context.Background(), key)
	if err != nil || !info2.ModTime.Equal(info.ModTime) {
		t.Fatalf("second delivery rewrote the mockup: %v -> %v (%v)", info.ModTime, info2.ModTime, err)
	}
}

// TestMockupReadsTheMockupSource: with a mockup source beside the print file (what the export stores),
// the mockup is made from it; the print file itself is read only when there is none.
func TestMockupReadsTheMockupSource(t *testing.T) {
	f := newFixture(t)
	put(t, f.store, tasks.MockupSourceKey("print/1/front.png"), solid(t, 225, 270, color.NRGBA{20, 200, 40, 255}))
	f.queue(t, 1, queue.Interactive)
	m := f.mockups(t)[0]
	if err := f.run(t, m.ID, 1); err != nil {
		t.Fatal(err)
	}
	img := f.storedPNG(t, blob.MockupKey(f.campaignID, f.tshirt, f.productID), "mockup.png")
	if c := color.RGBAModel.Convert(img.At(1000, 1100)).(color.RGBA); c.G < 180 || c.R > 40 {
		t.Errorf("print area pixel = %v, want the source's green", c)
	}
}

func TestSourceKey(t *testing.T) {
	if k := tasks.MockupSourceKey("print/3/42_r7.png"); k != "print/3/42_r7_mockup.png" || blob.ValidateKey(k) != nil {
		t.Fatalf("SourceKey = %q", k)
	}
	if k := tasks.BaseSourceKey("print/3/42_r7.png"); k != "print/3/42_r7_base.png" || blob.ValidateKey(k) != nil {
		t.Fatalf("BaseSourceKey = %q", k)
	}
}

func TestStaleRevisionDoesNothing(t *testing.T) {
	f := newFixture(t)
	f.queue(t, 1, queue.Interactive)
	m := f.mockups(t)[0]
	// The seller saves again: revision 2, its print file made and its mockups queued.
	f.db.MustExec(`UPDATE campaign_designs SET revision = 2 WHERE id = $1`, f.design)
	f.queue(t, 2, queue.Interactive)
	if err := f.run(t, m.ID, 1); err != nil {
		t.Fatal(err)
	}
	if got := f.mockups(t)[0]; got.Status != tasks.MockupPending || got.Revision != 2 || got.FileURL != "" {
		t.Fatalf("stale task changed the row: %+v", got)
	}
	if _, err := f.store.Stat(context.Background(), blob.MockupKey(f.campaignID, f.tshirt, f.productID)); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("stale task wrote the mockup: %v", err)
	}
	// A design whose revision moved past the row's (its export not done yet) is left too.
	f.db.MustExec(`UPDATE campaign_designs SET revision = 3, export_status = 'pending' WHERE id = $1`, f.design)
	if err := f.run(t, m.ID, 2); err != nil {
		t.Fatal(err)
	}
	if got := f.mockups(t)[0]; got.Status != tasks.MockupPending {
		t.Fatalf("task of an outdated design changed the row: %+v", got)
	}
	// A row removed since (its design deleted) is nothing to do either.
	if err := f.run(t, m.ID+1000, 1); err != nil {
		t.Fatalf("missing row: %v", err)
	}
}

func TestFailures(t *testing.T) {
	tests := []struct {
		name, wantMsg string
		breakIt       func(f *fixture)
	}{
		{name: "missing print file", wantMsg: MsgMissingPrint, breakIt: func(f *fixture) {
			f.store.Delete(context.Background(), "print/1/front.png")
		}},
		{name: "missing template", wantMsg: MsgMissingTemplate, breakIt: func(f *fixture) {
			f.store.Delete(context.Background(), "tpl/base.png")
		}},
		{name: "damaged template", wantMsg: MsgMissingTemplate, breakIt: func(f *fixture) {
			put(t, f.store, "tpl/a/template.json", []byte(`{"version": 1, "id": "plain", "surprise": true}`))
		}},
		{name: "damaged print file", wantMsg: MsgCannotRender, breakIt: func(f *fixture) {
			put(t, f.store, "print/1/front.png", []byte("\x89PNG\r\n\x1a\nnot really"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.queue(t, 1, queue.Interactive)
			tt.breakIt(f)
			m := f.mockups(t)[0]
			if err := f.run(t, m.ID, 1); !errors.Is(err, asynq.SkipRetry) {
				t.Fatalf("err = %v, want SkipRetry", err)
			}
			got := f.mockups(t)[0]
			if got.Status != tasks.MockupFailed || !strings.HasPrefix(got.Error, tt.wantMsg) || got.FileURL != "" {
				t.Fatalf("row = %+v, want failed with %q", got, tt.wantMsg)
			}
			// delivered again, a failed revision stays failed without rendering
			if err := f.run(t, m.ID, 1); err != nil {
				t.Fatalf("second delivery: %v", err)
			}
		})
	}
}

func TestMalformedPayload(t *testing.T) {
	f := newFixture(t)
	for _, p := range []string{`{`, `{"campaign_mockup_id": 0, "revision": 1}`, `{"campaign_mockup_id": 1}`} {
		if err := f.h.ProcessTask(context.Background(), asynq.NewTask(tasks.TypeMockup, []byte(p))); !errors.Is(err, asynq.SkipRetry) {
			t.Errorf("payload %s: err = %v, want SkipRetry", p, err)
		}
	}
}

func TestOutputSize(t *testing.T) {
	for _, tt := range []struct {
		sizes []int
		want  int
	}{{[]int{2000, 500}, 2000}, {[]int{500, 2000}, 2000}, {[]int{256}, 256}, {[]int{500, 1000}, 1000}} {
		if got := outputSize(&mockup.Template{Sizes: tt.sizes}); got != tt.want {
			t.Errorf("outputSize(%v) = %d, want %d", tt.sizes, got, tt.want)
		}
	}
}

func TestProductColor(t *testing.T) {
	const opts = `{"colors":[{"name":"White","hex":"#ffffff"},{"name":"Navy","hex":"#1f2a44"}]}`
	for _, tt := range []struct{ options, def, want string }{
		{opts, "Navy", "#1f2a44"},
		{opts, "Gold", "#ffffff"},
		{`{"colors":[]}`, "White", ""},
	} {
		if got, err := productColor(tt.options, tt.def); err != nil || got != tt.want {
			t.Errorf("productColor(%s, %s) = %q, %v; want %q", tt.options, tt.def, got, err, tt.want)
		}
	}
	if _, err := productColor(`[`, ""); err == nil {
		t.Error("malformed options: no error")
	}
	if _, err := productColor(`{"colors":[{"name":"Navy","hex":"navy"}]}`, "Navy"); err == nil {
		t.Error("a colour that is not #rgb or #rrggbb: no error")
	}
}

// TestDefaultFollowsTemplateOrderUntilChosen: print files finish in any order, so the default
// mockup moves to the first template's mockup when it appears later, unless the seller chose one.
func TestDefaultFollowsTemplateOrderUntilChosen(t *testing.T) {
	f := newFixture(t)
	defaults := func() []int64 {
		t.Helper()
		var ids []int64
		if err := f.db.Select(&ids, `SELECT mockup_template_id FROM campaign_mockups WHERE product_id = $1 AND is_default_mockup`, f.productID); err != nil {
			t.Fatal(err)
		}
		return ids
	}
	// The first template does not apply yet: the any-type mockup is the default meanwhile.
	f.db.MustExec(`UPDATE mockup_templates SET type_detail = 'hoodie' WHERE id = $1`, f.tshirt)
	f.queue(t, 1, queue.Interactive)
	if got := defaults(); len(got) != 1 || got[0] != f.anyType {
		t.Fatalf("defaults = %v, want the any-type template %d", got, f.anyType)
	}
	f.db.MustExec(`UPDATE mockup_templates SET type_detail = 'tshirt' WHERE id = $1`, f.tshirt)
	f.db.MustExec(`UPDATE campaign_designs SET revision = 2 WHERE id = $1`, f.design)
	f.queue(t, 2, queue.Interactive)
	if got := defaults(); len(got) != 1 || got[0] != f.tshirt {
		t.Fatalf("defaults = %v, want the first template %d", got, f.tshirt)
	}
	// The seller chooses the any-type mockup (as PUT .../default-mockup does): a later save keeps it.
	f.db.MustExec(`UPDATE campaign_mockups SET is_default_mockup = false WHERE product_id = $1`, f.productID)
	f.db.MustExec(`UPDATE campaign_mockups SET is_default_mockup = true, default_chosen = true WHERE product_id = $1 AND mockup_template_id = $2`, f.productID, f.anyType)
	f.db.MustExec(`UPDATE campaign_designs SET revision = 3 WHERE id = $1`, f.design)
	f.queue(t, 3, queue.Interactive)
	if got := defaults(); len(got) != 1 || got[0] != f.anyType {
		t.Fatalf("defaults = %v, want the seller's choice %d", got, f.anyType)
	}
}

// TestPrintFileHoldsTheBudget: the decoded print file's pixels are held of the memory budget the
// task's context carries from its decoding until release, and given back then.
func TestPrintFileHoldsTheBudget(t *testing.T) {
	f := newFixture(t)
	b, err := membudget.New(1 << 30)
	if err != nil {
		t.Fatal(err)
	}
	idle := 0
	b.OnIdle(membudget.RGBA(450, 540), func() { idle++ })
	img, release, err := f.h.printFile(membudget.WithBudget(context.Background(), b), "print/1/front.png")
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != image.Rect(0, 0, 450, 540) {
		t.Fatalf("print file %v, want 450x540", img.Bounds())
	}
	if idle != 0 {
		t.Fatal("the budget went idle before release")
	}
	release()
	if idle != 1 {
		t.Fatalf("the budget went idle %d times after release; want once, after the print file's %d bytes", idle,
			membudget.RGBA(450, 540))
	}
}
