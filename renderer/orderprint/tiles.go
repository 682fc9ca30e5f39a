package orderprint

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/dpi"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/membudget"
	"github.com/pressroom/pressroom/renderer/pngmeta"
	"github.com/pressroom/pressroom/renderer/taskrun"
	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/tiles"
)

// Tiler runs render:tiles: it measures the item's print file (pixel size, declared DPI, byte size,
// whether text metadata is left in it), writes its WebP deep-zoom pyramid and the manifest under
// tasks.TilesPrefix, and records all of it, which makes the revision done and the item ready for review.
type Tiler struct {
	d   deps
	opt tiles.Options
}

// NewTiler builds the handler; opt tunes the pyramid (the zero value: 256 px WebP tiles on every core).
func NewTiler(db *sqlx.DB, store blob.Store, limits imagelimit.Config, opt tiles.Options, log *slog.Logger) (*Tiler, error) {
	d, err := newDeps(db, store, limits, log)
	return &Tiler{d: d, opt: opt}, err
}

// facts is what the tiler measures of a print file.
type facts struct {
	width, height int
	declaredDPI   *float64
	size          int64
	stripped      bool
}

// ProcessTask tiles one revision's print file. An item gone, moved to a later revision, no longer
// pending, or without a print file yet is left as it is.
func (h *Tiler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := parsePayload(t)
	if err != nil {
		return err
	}
	const load = `SELECT revision, print_status, print_key FROM design_order_items WHERE id = $1`
	var r struct {
		Revision int64  `db:"revision"`
		Status   string `db:"print_status"`
		Key      string `db:"print_key"`
	}
	err = h.d.db.GetContext(ctx, &r, load, p.ItemID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load item %d: %w", p.ItemID, err)
	}
	if r.Revision != p.Revision || r.Status != tasks.PrintPending || r.Key == "" {
		return nil
	}
	return h.d.finish(ctx, p, tasks.TypeTiles, h.tile(ctx, p, r.Key))
}

// tile copies the print file to a temporary file, measures it, writes the pyramid and records it.
func (h *Tiler) tile(ctx context.Context, p tasks.OrderPayload, key string) error {
	tmp, err := os.CreateTemp("", "tiles-*.png")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	rc, _, err := h.d.store.Get(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return taskrun.Fail(MsgMissingSource, err)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", key, err)
	}
	size, err := io.Copy(tmp, rc)
	rc.Close()
	if err != nil {
		return fmt.Errorf("read %s: %w", key, err)
	}
	f, err := measure(tmp, size, h.d.limits)
	if err != nil {
		return taskrun.Fail(MsgBadPrintFile, err)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	start := time.Now()
	// The decoded print file and the pyramid's coarser levels, a third more: what tiling holds of the
	// renderer's memory budget, taken before anything is decoded.
	release, err := membudget.Acquire(ctx, membudget.RGBA(f.width, f.height)*4/3)
	if err != nil {
		return err
	}
	defer release()
	img, _, err := imagelimit.Decode(tmp, h.d.limits)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return taskrun.Fail(MsgBadPrintFile, err)
	}
	b := img.Bounds()
	names, err := tiles.NewManifest(b.Dx(), b.Dy(), h.opt.TileSize, h.opt.Format)
	if err != nil {
		return taskrun.Fail(MsgBadPrintFile, err)
	}
	prefix := tasks.TilesPrefix(p.ItemID, p.Revision)
	contentType := "image/" + names.Format
	var first sync.Once
	var firstAfter time.Duration
	m, err := tiles.Generate(ctx, img, h.opt, func(tl tiles.Tile) error {
		first.Do(func() { firstAfter = time.Since(start) })
		name := prefix + names.Name(tl.Level, tl.Col, tl.Row)
		if err := h.d.store.Put(ctx, name, bytes.NewReader(tl.Data), int64(len(tl.Data)), contentType); err != nil {
			return fmt.Errorf("store %s: %w", name, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	manifest, err := json.Marshal(m)
	if err != nil {
		return err
	}
	manifestKey := tasks.ManifestKey(p.ItemID, p.Revision)
	if err := h.d.store.Put(ctx, manifestKey, bytes.NewReader(manifest), int64(len(manifest)), "application/json"); err != nil {
		return fmt.Errorf("store %s: %w", manifestKey, err)
	}
	h.d.log.Info("print file tiled", "item", p.ItemID, "revision", p.Revision, "width", m.Width, "height", m.Height,
		"tiles", m.TileCount(), "first_tile_ms", firstAfter.Milliseconds(), "total_ms", time.Since(start).Milliseconds())
	// The item is ready for review once its print file is: designing moves on to reviewing.
	const done = `UPDATE design_order_items SET width = $3, height = $4, declared_dpi = $5, byte_size = $6, stripped = $7,
	tiles_key = $8, tiles_manifest = $9, print_status = 'done', print_error = '',
	status = CASE WHEN status = 'designing' THEN 'reviewing' ELSE status END, updated_at = now()
WHERE id = $1 AND revision = $2 AND print_status = 'pending'`
	if _, err := h.d.db.ExecContext(ctx, done, p.ItemID, p.Revision, f.width, f.height, f.declaredDPI, f.size,
		f.stripped, manifestKey, manifest); err != nil {
		return fmt.Errorf("record tiles of item %d: %w", p.ItemID, err)
	}
	return nil
}

// measure reads what the review screen shows of a PNG print file: its size, the DPI its pHYs chunk
// declares (nil without one), and whether it is free of text metadata chunks.
func measure(file io.ReadSeeker, size int64, limits imagelimit.Config) (facts, error) {
	f := facts{size: size}
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return f, err
	}
	cfg, format, err := imagelimit.DecodeConfig(file, limits)
	if err != nil {
		return f, err
	}
	if format != "png" {
		return f, fmt.Errorf("print file is %s, want png", format)
	}
	f.width, f.height = cfg.Width, cfg.Height
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return f, err
	}
	x, y, ok, err := dpi.Declared(file)
	if err != nil {
		return f, err
	}
	if ok {
		d := min(x, y)
		f.declaredDPI = &d
	}
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return f, err
	}
	st, err := pngmeta.Strip(io.Discard, file)
	if err != nil {
		return f, err
	}
	f.stripped = st.ChunksRemoved == 0
	return f, nil
}
