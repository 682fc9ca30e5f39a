package orderprint

import (
	"fmt"
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
)

// Task types.
const (
	TypeOrderExport = "render:order-export"
	TypeTiles       = "render:tiles"
)

// Payload is what both tasks carry: the item and the revision of its print file, never pixels.
type Payload struct {
	ItemID   int64 `json:"item_id"`
	Revision int64 `json:"revision"`
}

// Limits of the tasks: a 13500x16200 all-over print renders or tiles in well under a minute per core.
const (
	taskTimeout = 10 * time.Minute
	taskRetries = 5
)

// NewExportJob builds the task rendering revision of item itemID from its design document, on the
// renderer queue of the given priority. The task id names the item and the revision, so a revision is
// rendered once however often the outbox relays it.
func NewExportJob(itemID, revision int64, priority queue.Priority) (queue.Job, error) {
	return newJob(TypeOrderExport, "order-export-", itemID, revision, priority)
}

// NewTilesJob builds the task measuring and tiling revision of item itemID's print file.
func NewTilesJob(itemID, revision int64, priority queue.Priority) (queue.Job, error) {
	return newJob(TypeTiles, "tiles-", itemID, revision, priority)
}

func newJob(typ, idPrefix string, itemID, revision int64, priority queue.Priority) (queue.Job, error) {
	if itemID <= 0 || revision <= 0 {
		return queue.Job{}, fmt.Errorf("%s: item %d revision %d, want positive ids", typ, itemID, revision)
	}
	return queue.NewJob(queue.Job{
		Type: typ, Queue: queue.Name(queue.Renderer, priority),
		TaskID:   idPrefix + strconv.FormatInt(itemID, 10) + "-r" + strconv.FormatInt(revision, 10),
		MaxRetry: taskRetries, Timeout: taskTimeout,
	}, Payload{ItemID: itemID, Revision: revision})
}

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (Payload, error) {
	return queue.ParsePayload(t, func(p Payload) bool { return p.ItemID > 0 && p.Revision > 0 })
}

// itemPrefix is where everything of one revision of an item lives: orders/{itemId}/r{revision}/.
// Print files are only ever handed out as signed URLs or through the bff, like the editor's.
func itemPrefix(itemID, revision int64) string {
	return "orders/" + strconv.FormatInt(itemID, 10) + "/r" + strconv.FormatInt(revision, 10) + "/"
}

// PrintKey is the blob key of a rendered print file of an item's revision.
func PrintKey(itemID, revision int64) string { return itemPrefix(itemID, revision) + "print.png" }

// TilesPrefix is the folder of an item revision's pyramid; a tile is TilesPrefix + Manifest.Name(...).
func TilesPrefix(itemID, revision int64) string { return itemPrefix(itemID, revision) + "tiles/" }

// ManifestKey is the blob key of the pyramid's manifest JSON.
func ManifestKey(itemID, revision int64) string {
	return TilesPrefix(itemID, revision) + "manifest.json"
}
