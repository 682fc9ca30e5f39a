package seed

import (
	"context"
	"testing"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/orderprint"
	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/tiles"
)

// TestOrders seeds twice and finds the demo design orders once, each item queued for rendering; the
// mug's demo design renders and tiles into an item ready for review.
func TestOrders(t *testing.T) {
	db, store := seededTwice(t)
	ctx := context.Background()
	var items []struct {
		ID      int64  `db:"id"`
		Number  string `db:"number"`
		Product string `db:"product_name"`
		Width   int    `db:"width"`
		Status  string `db:"status"`
	}
	const q = `SELECT i.id, o.number, i.product_name, (i.print_space->>'width')::int AS width, i.status
FROM design_order_items i JOIN design_orders o ON o.id = i.order_id
JOIN users u ON u.id = o.seller_id AND u.email = 'seller@example.com' ORDER BY i.id`
	if err := db.Select(&items, q); err != nil {
		t.Fatal(err)
	}
	if len(items) != 4 || items[2].Number != "PR-1002" || items[2].Width != 13500 {
		t.Fatalf("items = %+v, want 4 with the 13500 px all-over print third", items)
	}
	var queued int
	if err := db.Get(&queued, `SELECT count(*) FROM task_outbox WHERE task_type = $1`, tasks.TypeOrderExport); err != nil || queued != 4 {
		t.Fatalf("queued exports = %d (%v), want 4", queued, err)
	}

	mug := items[1]
	exporter, err := orderprint.NewExporter(db, store, imagelimit.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tiler, err := orderprint.NewTiler(db, store, imagelimit.Config{}, tiles.Options{Format: tiles.FormatPNG}, nil)
	if err != nil {
		t.Fatal(err)
	}
	exportJob, err := tasks.NewOrderExportJob(mug.ID, 1, queue.Default)
	if err != nil {
		t.Fatal(err)
	}
	if err := exporter.ProcessTask(ctx, exportJob.Task()); err != nil {
		t.Fatal(err)
	}
	tilesJob, err := tasks.NewTilesJob(mug.ID, 1, queue.Default)
	if err != nil {
		t.Fatal(err)
	}
	if err := tiler.ProcessTask(ctx, tilesJob.Task()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Status  string `db:"status"`
		Width   int    `db:"width"`
		Height  int    `db:"height"`
		Quality string `db:"quality"`
	}
	if err := db.Get(&got, `SELECT status, width, height, dpi_report->>'quality' AS quality FROM design_order_items WHERE id = $1`, mug.ID); err != nil {
		t.Fatal(err)
	}
	if got.Status != "reviewing" || got.Width != 2700 || got.Height != 1050 || got.Quality != "good" {
		t.Errorf("mug after rendering = %+v, want reviewing 2700x1050 good", got)
	}
}
