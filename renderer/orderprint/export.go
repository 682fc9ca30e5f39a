package orderprint

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"

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
	"github.com/pressroom/pressroom/renderer/taskrun"
	"github.com/pressroom/pressroom/renderer/tasks"
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
	key := tasks.OrderPrintKey(p.ItemID, p.Revision)
	if r.Revision != p.Revision || r.Status != tasks.PrintPending || r.Key == key {
		return nil
	}
	return e.d.finish(ctx, p, tasks.TypeOrderExport, e.export(ctx, p, r.Document, key, taskrun.PriorityOf(ctx, queue.Default)))
}

// export renders the document into a temporary file, stores it under key and records it.
func (e *Exporter) export(ctx context.Context, p tasks.OrderPayload, document []byte, key string, priority queue.Priority) error {
	doc, err := design.Parse(document)
	if err != nil {
		return taskrun.Fail(MsgCannotRender, err)
	}
	// The canvas and, at most, one source at print size at a time: what the render holds of the
	// renderer's memory budget.
	release, err := membudget.Acquire(ctx, 2*membudget.RGBA(doc.PrintSpace.Width, doc.PrintSpace.Height))
	if err != nil {
		return err
	}
	defer release()
	var report raster.Report
	opt := raster.Options{Loader: blobsource.Loader(e.d.store), Limits: e.d.limits}
	if _, err := taskrun.StoreFile(ctx, e.d.store, key, "image/png", "order-export-*.png", func(w io.Writer) error {
		var rerr error
		report, rerr = raster.Export(ctx, doc, opt, w)
		return taskrun.Classify(ctx, rerr, MsgMissingSource, MsgCannotRender)
	}); err != nil {
		return err
	}
	rep, err := json.Marshal(report.DPI)
	if err != nil {
		return err
	}
	job, err := tasks.NewTilesJob(p.ItemID, p.Revision, priority)
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
