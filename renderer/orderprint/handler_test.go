package orderprint

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
	"github.com/pressroom/pressroom/renderer/dpi"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/membudget"
	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/tiles"
)

type fixture struct {
	db     *sqlx.DB
	store  blob.Store
	export *Exporter
	tiler  *Tiler
	order  int64
}

// newFixture is a database with one seller and order, a local blob store holding a 300x360 artwork
// at u/1/art.png, and both handlers (PNG tiles of 128 px, so the test needs no WebP encoder).
func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, _ := testinfra.Postgres(t)
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	store, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, store: store}
	if f.export, err = NewExporter(db, store, imagelimit.Config{}, nil); err != nil {
		t.Fatal(err)
	}
	if f.tiler, err = NewTiler(db, store, imagelimit.Config{}, tiles.Options{TileSize: 128, Format: tiles.FormatPNG}, nil); err != nil {
		t.Fatal(err)
	}
	const seed = `
WITH u AS (INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id)
INSERT INTO design_orders (seller_id, number) SELECT id, 'PR-1' FROM u RETURNING id`
	if err := db.Get(&f.order, seed); err != nil {
		t.Fatal(err)
	}
	art := image.NewNRGBA(image.Rect(0, 0, 300, 360))
	for i := 0; i < len(art.Pix); i += 4 {
		copy(art.Pix[i:], []byte{20, 120, 220, 255})
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

// document is a 600x720 print space at 300 DPI with the artwork src on its middle half and a text.
func document(src string) string {
	return fmt.Sprintf(`{"version": 1, "printSpace": {"name": "front", "width": 600, "height": 720, "dpi": 300, "minDpi": 150, "printType": 0},
 "objects": [
  {"type": "image", "id": "art", "src": %q, "x": 150, "y": 180, "width": 300, "height": 360, "rotation": 0},
  {"type": "text", "id": "t", "text": "Hello", "fontFamily": "Roboto", "fontUrl": "", "fontSize": 40, "fill": "#111111",
   "x": 0, "y": 20, "width": 600, "rotation": 0, "textWidth": "limited", "textAlign": "center", "maxLength": 16,
   "convertText": "uppercase", "displayStyle": "color", "backgroundUrl": "", "isCustom": true}]}`, src)
}

// item inserts a pending item of doc and returns its id.
func (f *fixture) item(t *testing.T, doc string) int64 {
	t.Helper()
	var id int64
	const q = `INSERT INTO design_order_items (order_id, product_name, print_space, design_json)
VALUES ($1, 'T-shirt', '{}', $2::jsonb) RETURNING id`
	if err := f.db.Get(&id, q, f.order, doc); err != nil {
		t.Fatal(err)
	}
	return id
}

type itemRow struct {
	Status      string   `db:"status"`
	PrintStatus string   `db:"print_status"`
	PrintError  string   `db:"print_error"`
	PrintKey    string   `db:"print_key"`
	Width       *int     `db:"width"`
	Height      *int     `db:"height"`
	DeclaredDPI *float64 `db:"declared_dpi"`
	ByteSize    *int64   `db:"byte_size"`
	Stripped    *bool    `db:"stripped"`
	Report      []byte   `db:"dpi_report"`
	TilesKey    string   `db:"tiles_key"`
	Manifest    []byte   `db:"tiles_manifest"`
}

func (f *fixture) state(t *testing.T, id int64) itemRow {
	t.Helper()
	var r itemRow
	const q = `SELECT status, print_status, print_error, print_key, width, height, declared_dpi, byte_size, stripped,
	dpi_report, tiles_key, tiles_manifest FROM design_order_items WHERE id = $1`
	if err := f.db.Get(&r, q, id); err != nil {
		t.Fatal(err)
	}
	return r
}

func run(t *testing.T, h asynq.Handler, job queue.Job, jobErr error) error {
	t.Helper()
	if jobErr != nil {
		t.Fatal(jobErr)
	}
	return h.ProcessTask(context.Background(), job.Task())
}

func TestExportThenTilesMakeTheItemReadyForReview(t *testing.T) {
	f := newFixture(t)
	id := f.item(t, document("u/1/art.png"))

	job, err := tasks.NewOrderExportJob(id, 1, queue.Interactive)
	if err := run(t, f.export, job, err); err != nil {
		t.Fatal(err)
	}
	st := f.state(t, id)
	if st.PrintKey != tasks.OrderPrintKey(id, 1) || st.PrintStatus != tasks.PrintPending || st.Status != "designing" {
		t.Fatalf("after export: key %q, print %s, status %s", st.PrintKey, st.PrintStatus, st.Status)
	}
	var report dpi.Report
	if err := json.Unmarshal(st.Report, &report); err != nil {
		t.Fatal(err)
	}
	if len(report.Objects) != 1 || report.Objects[0].ID != "art" || report.Objects[0].EffectiveDPI != 300 || report.Quality != dpi.Good {
		t.Errorf("DPI report = %+v, want art at 300 DPI, good", report)
	}
	var outboxed []string
	if err := f.db.Select(&outboxed, `SELECT task_type || ' ' || task_id || ' ' || queue FROM task_outbox`); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s tiles-%d-r1 renderer.default", tasks.TypeTiles, id)
	if len(outboxed) != 1 || outboxed[0] != want {
		t.Errorf("outbox = %q, want [%q]", outboxed, want)
	}

	// Tiling holds the decoded print file and the pyramid's coarser levels (a third more) of the memory
	// budget the task's context carries, and gives them back.
	b, err := membudget.New(1 << 30)
	if err != nil {
		t.Fatal(err)
	}
	idle := 0
	b.OnIdle(membudget.RGBA(600, 720)*4/3, func() { idle++ })
	job, err = tasks.NewTilesJob(id, 1, queue.Interactive)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.tiler.ProcessTask(membudget.WithBudget(context.Background(), b), job.Task()); err != nil {
		t.Fatal(err)
	}
	if idle != 1 {
		t.Errorf("the budget went idle %d times after the tiles, having held the pyramid's %d bytes: want once", idle,
			membudget.RGBA(600, 720)*4/3)
	}
	st = f.state(t, id)
	if st.Status != "reviewing" || st.PrintStatus != tasks.PrintDone || st.TilesKey != tasks.ManifestKey(id, 1) {
		t.Fatalf("after tiles: status %s, print %s, tiles %q", st.Status, st.PrintStatus, st.TilesKey)
	}
	if *st.Width != 600 || *st.Height != 720 || st.DeclaredDPI == nil || *st.DeclaredDPI != 300 || !*st.Stripped {
		t.Errorf("facts: %dx%d, declared %v, stripped %v", *st.Width, *st.Height, st.DeclaredDPI, *st.Stripped)
	}
	info, err := f.store.Stat(context.Background(), st.PrintKey)
	if err != nil || info.Size != *st.ByteSize {
		t.Errorf("byte size %d, stored %d (%v)", *st.ByteSize, info.Size, err)
	}
	var m tiles.Manifest
	if err := json.Unmarshal(st.Manifest, &m); err != nil {
		t.Fatal(err)
	}
	if m.Width != 600 || m.Height != 720 || m.TileSize != 128 || m.Format != tiles.FormatPNG {
		t.Errorf("manifest %+v", m)
	}
	// Every tile of the pyramid is stored, and the finest level's first tile is the print file's corner.
	for l := range m.Levels {
		cols, rows := m.Grid(l)
		for c := range cols {
			for r := range rows {
				if _, err := f.store.Stat(context.Background(), tasks.TilesPrefix(id, 1)+m.Name(l, c, r)); err != nil {
					t.Fatalf("tile %s: %v", m.Name(l, c, r), err)
				}
			}
		}
	}
	rc, _, err := f.store.Get(context.Background(), tasks.TilesPrefix(id, 1)+m.Name(m.Levels-1, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	tile, err := png.Decode(rc)
	if err != nil {
		t.Fatal(err)
	}
	// Tile (1, 1) covers print pixels 128..255 x 128..255: the artwork starts at (150, 180).
	if r, g, b, a := tile.At(127, 127).RGBA(); r>>8 != 20 || g>>8 != 120 || b>>8 != 220 || a>>8 != 255 {
		t.Errorf("tile pixel at print (255, 255) = %d %d %d %d, want the artwork's blue", r>>8, g>>8, b>>8, a>>8)
	}
}

func TestTasksLeaveOtherRevisionsAndFinishedItemsAlone(t *testing.T) {
	f := newFixture(t)
	id := f.item(t, document("u/1/art.png"))
	for name, h := range map[string]asynq.Handler{"export": f.export, "tiles": f.tiler} {
		t.Run(name, func(t *testing.T) {
			job, err := tasks.NewOrderExportJob(id, 2, queue.Default)
			if name == "tiles" {
				job, err = tasks.NewTilesJob(id, 2, queue.Default)
			}
			if err := run(t, h, job, err); err != nil {
				t.Fatal(err)
			}
			if st := f.state(t, id); st.PrintKey != "" || st.PrintStatus != tasks.PrintPending {
				t.Errorf("revision 2's task changed revision 1: %+v", st)
			}
		})
	}
	// A task for an item that is gone succeeds without doing anything.
	job, err := tasks.NewOrderExportJob(id+100, 1, queue.Default)
	if err := run(t, f.export, job, err); err != nil {
		t.Errorf("missing item: %v", err)
	}
}

func TestFailuresAreRecordedAndNotRetried(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name, doc, want string
	}{
		{"missing artwork", document("u/1/gone.png"), MsgMissingSource},
		{"invalid document", `{"version": 1}`, MsgCannotRender},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id := f.item(t, tc.doc)
			job, err := tasks.NewOrderExportJob(id, 1, queue.Default)
			err = run(t, f.export, job, err)
			if !errors.Is(err, asynq.SkipRetry) {
				t.Fatalf("err = %v, want SkipRetry", err)
			}
			if st := f.state(t, id); st.PrintStatus != tasks.PrintFailed || st.PrintError != tc.want {
				t.Errorf("print %s %q, want failed %q", st.PrintStatus, st.PrintError, tc.want)
			}
		})
	}
	t.Run("print file that is no PNG", func(t *testing.T) {
		id := f.item(t, document("u/1/art.png"))
		key := "u/1/notes.txt"
		if err := f.store.Put(context.Background(), key, bytes.NewReader([]byte("not an image")), 12, "text/plain"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.db.Exec(`UPDATE design_order_items SET print_key = $2 WHERE id = $1`, id, key); err != nil {
			t.Fatal(err)
		}
		job, err := tasks.NewTilesJob(id, 1, queue.Default)
		if err := run(t, f.tiler, job, err); !errors.Is(err, asynq.SkipRetry) {
			t.Fatalf("err = %v, want SkipRetry", err)
		}
		if st := f.state(t, id); st.PrintStatus != tasks.PrintFailed || st.PrintError != MsgBadPrintFile {
			t.Errorf("print %s %q", st.PrintStatus, st.PrintError)
		}
	})
	t.Run("malformed payload", func(t *testing.T) {
		err := f.tiler.ProcessTask(context.Background(), asynq.NewTask(tasks.TypeTiles, []byte(`{"item_id": 0}`)))
		if !errors.Is(err, asynq.SkipRetry) {
			t.Errorf("err = %v, want SkipRetry", err)
		}
	})
}

func TestMeasureSeesLeftoverMetadata(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 4, 3))); err != nil {
		t.Fatal(err)
	}
	clean := buf.Bytes()
	// A tEXt chunk ("Software\x00x") right after IHDR (8 signature + 25 IHDR bytes).
	text := []byte{0, 0, 0, 10, 't', 'E', 'X', 't', 'S', 'o', 'f', 't', 'w', 'a', 'r', 'e', 0, 'x', 0x4a, 0x8d, 0xbf, 0xce}
	withText := append(append(append([]byte{}, clean[:33]...), text...), clean[33:]...)
	for name, tc := range map[string]struct {
		file     []byte
		stripped bool
	}{"clean": {clean, true}, "with text": {withText, false}} {
		t.Run(name, func(t *testing.T) {
			f, err := measure(bytes.NewReader(tc.file), int64(len(tc.file)), imagelimit.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if f.width != 4 || f.height != 3 || f.stripped != tc.stripped || f.declaredDPI != nil {
				t.Errorf("facts %+v, want 4x3, stripped %v, no declared DPI", f, tc.stripped)
			}
		})
	}
}
