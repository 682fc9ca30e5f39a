package export

import (
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
)

// TypeExport is the Asynq task type.
const TypeExport = "render:export"

// Payload is what an export task carries: the design row and the revision to render, never pixels.
type Payload struct {
	DesignID int64 `json:"design_id"`
	Revision int64 `json:"revision"`
}

// Limits of an export task: a 13500 px all-over print takes well under a minute on one core.
const (
	exportTimeout = 10 * time.Minute
	exportRetries = 5
)

// NewExportJob builds the task rendering revision of design designID on the renderer queue of the
// given priority (interactive for the editor, bulk for bulk work). The task id names the design and
// the revision, so a revision is queued once however often the outbox relays it.
func NewExportJob(designID, revision int64, priority queue.Priority) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeExport, Queue: queue.Name(queue.Renderer, priority),
		TaskID:   "export-" + strconv.FormatInt(designID, 10) + "-r" + strconv.FormatInt(revision, 10),
		MaxRetry: exportRetries, Timeout: exportTimeout,
	}, Payload{DesignID: designID, Revision: revision})
}

// PrintKey is the blob key of the print file of a design's revision:
// print/{campaignId}/{designId}_r{revision}.png. Print files are the seller's full-resolution artwork:
// they live outside p/ (mockups, which buyers see) and are only ever handed out as signed URLs.
func PrintKey(campaignID, designID, revision int64) string {
	return "print/" + strconv.FormatInt(campaignID, 10) + "/" + strconv.FormatInt(designID, 10) + "_r" +
		strconv.FormatInt(revision, 10) + ".png"
}

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (Payload, error) {
	return queue.ParsePayload(t, func(p Payload) bool { return p.DesignID > 0 && p.Revision > 0 })
}
