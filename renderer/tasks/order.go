package tasks

import (
	"fmt"
	"strconv"
	"time"

	"github.com/pressroom/pressroom/platform/queue"
)

// Order item task types: the print file of an order item rendered from its design document, and its
// deep-zoom tiles for the designer review.
const (
	TypeOrderExport = "render:order-export"
	TypeTiles       = "render:tiles"
)

// OrderPayload is what both order item tasks carry: the item and the revision of its print file, never pixels.
type OrderPayload struct {
	ItemID   int64 `json:"item_id"`
	Revision int64 `json:"revision"`
}

// Print states of an order item (design_order_items.print_status).
const (
	PrintPending = "pending"
	PrintDone    = "done"
	PrintFailed  = "failed"
)

// Limits of the order item tasks: a 13500x16200 all-over print renders or tiles in well under a
// minute per core.
const (
	orderTaskTimeout = 10 * time.Minute
	orderTaskRetries = 5
)

// NewOrderExportJob builds the task rendering revision of item itemID from its design document, on
// the renderer queue of the given priority. The task id names the item and the revision, so a
// revision is rendered once however often the outbox relays it.
func NewOrderExportJob(itemID, revision int64, priority queue.Priority) (queue.Job, error) {
	return newOrderJob(TypeOrderExport, "order-export-", itemID, revision, priority)
}

// NewTilesJob builds the task measuring and tiling revision of item itemID's print file.
func NewTilesJob(itemID, revision int64, priority queue.Priority) (queue.Job, error) {
	return newOrderJob(TypeTiles, "tiles-", itemID, revision, priority)
}

func newOrderJob(typ, idPrefix string, itemID, revision int64, priority queue.Priority) (queue.Job, error) {
	if itemID <= 0 || revision <= 0 {
		return queue.Job{}, fmt.Errorf("%s: item %d revision %d, want positive ids", typ, itemID, revision)
	}
	return queue.NewJob(queue.Job{
		Type: typ, Queue: queue.Name(queue.Renderer, priority),
		TaskID:   idPrefix + strconv.FormatInt(itemID, 10) + "-r" + strconv.FormatInt(revision, 10),
		MaxRetry: orderTaskRetries, Timeout: orderTaskTimeout,
	}, OrderPayload{ItemID: itemID, Revision: revision})
}

// itemPrefix is where everything of one revision of an item lives: orders/{itemId}/r{revision}/.
// Print files are only ever handed out as signed URLs or through the bff, like the editor's.
func itemPrefix(itemID, revision int64) string {
	return "orders/" + strconv.FormatInt(itemID, 10) + "/r" + strconv.FormatInt(revision, 10) + "/"
}

// OrderPrintKey is the blob key of a rendered print file of an item's revision.
func OrderPrintKey(itemID, revision int64) string { return itemPrefix(itemID, revision) + "print.png" }

// TilesPrefix is the folder of an item revision's pyramid; a tile is TilesPrefix + its level and name.
func TilesPrefix(itemID, revision int64) string { return itemPrefix(itemID, revision) + "tiles/" }

// ManifestKey is the blob key of the pyramid's manifest JSON.
func ManifestKey(itemID, revision int64) string {
	return TilesPrefix(itemID, revision) + "manifest.json"
}
