package orderprint

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/blobsource"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/membudget"
	"github.com/pressroom/pressroom/renderer/raster"
)

// Exporter runs render:order-export: it renders the item's design document with renderer/raster,
// stores the print file under PrintKey, records it with the DPI report, and queues render:tiles for
// it through the outbox in the same transaction.
type Exporter struct{ d deps }

// NewExporter builds the handler; limits bounds every source decoded and the print file's pixels
// (zero fields: imagelimit's defaults, sized for a 13500x16200 print).
func NewExporter(db *sqlx.DB, store blob.Store, limits imagelimit.Config, log *slog.Logger) (*Exporter, error) {
	d, err := newDeps(db, store, limits, log)
	return &Exporter{d: d}, err
}

// ProcessTask renders one revision of an item. An item gone, moved to a later revision, or no longer
// pending is left as it is; a print file already recorded for the revision is not rendered again.
func (e *Exporter) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := parsePayload(t)
	if err != nil {
		return err
	}
	const load = `SELECT revision, print_status, print_key, design_json FROM design_order_items WHERE id = $1`
	var r struct {
		Revision int64  `db:"revision"`
		Status   string `db:"print_status"`
		Key      string `db:"print_key"`
		Document []byte `db:"design_json"`
	}
	err = e.d.db.GetContext(ctx, &r, load, p.ItemID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load item %d: %w", p.ItemID, err)
	}
	key := PrintKey(p.ItemID, p.Revision)
	if r.Revision != p.Revision || r.Status != PrintPending || r.Key == key {
		return nil
	}
	return e.d.finish(ctx, p, TypeOrderExport, e.export(ctx, p, r.Document, key, priorityOf(ctx)))
}

// priorityOf is the priority of the queue the running task came from, so the tiles follow at the
// same one; Default outside a queue.
func priorityOf(ctx context.Context) queue.Priority {
	name, _ := asynq.GetQueueName(ctx)
	for _, p := range []queue.Priority{queue.Interactive, queue.Default, queue.Bulk} {
		if name == queue.Name(queue.Renderer, p) {
			return p
		}
	}
	return queue.Default
}

// export renders the document into a temporary file, stores it under key and records it.
func (e *Exporter) export(ctx context.Context, p Payload, document []byte, key string, priority queue.Priority) error {
	doc, err := design.Parse(document)
	if err != nil {
		return &failure{msg: MsgCannotRender, err: err}
	}
	tmp, err := os.CreateTemp("", "order-export-*.png")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	// The canvas and, at most, one source at print size at a time: what the render holds of the
	// renderer's memory budget.
	release, err := membudget.Acquire(ctx, 2*membudget.RGBA(doc.PrintSpace.Width, doc.PrintSpace.Height))
	if err != nil {
		return err
	}
	report, err := raster.Export(ctx, doc, raster.Options{Loader: blobsource.Loader(e.d.store), Limits: e.d.limits}, tmp)
	release()
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return ctx.Err()
	case blobsource.IsPassing(err):
		return err
	case errors.Is(err, blob.ErrNotFound):
		return &failure{msg: MsgMissingSource, err: err}
	default:
		return &failure{msg: MsgCannotRender, err: err}
	}
	size, err := tmp.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := e.d.store.Put(ctx, key, tmp, size, "image/png"); err != nil {
		return fmt.Errorf("store %s: %w", key, err)
	}
	rep, err := json.Marshal(report.DPI)
	if err != nil {
		return err
	}
	job, err := NewTilesJob(p.ItemID, p.Revision, priority)
	if err != nil {
		return err
	}
	tx, err := e.d.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	const done = `UPDATE design_order_items SET print_key = $3, dpi_report = $4, updated_at = now()
WHERE id = $1 AND revision = $2 AND print_status = 'pending'`
	res, err := tx.ExecContext(ctx, done, p.ItemID, p.Revision, key, rep)
	if err != nil {
		return fmt.Errorf("record print file of item %d: %w", p.ItemID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil // moved on meanwhile
	}
	if _, err := outbox.Add(ctx, tx, job); err != nil {
		return err
	}
	return tx.Commit()
}
