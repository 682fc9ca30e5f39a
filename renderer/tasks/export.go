package tasks

import (
	"strconv"
	"strings"
	"time"

	"github.com/pressroom/pressroom/platform/queue"
)

// TypeExport is the task rendering the print file of one revision of a campaign design.
const TypeExport = "render:export"

// ExportPayload is what an export task carries: the design row and the revision to render, never pixels.
type ExportPayload struct {
	DesignID int64 `json:"design_id"`
	Revision int64 `json:"revision"`
}

// Export states of a design (campaign_designs.export_status).
const (
	// ExportNone: an empty print space, which has no print file to make.
	ExportNone = "none"
	// ExportPending: the revision's export task is queued.
	ExportPending = "pending"
	// ExportRendering: the renderer is making the print file.
	ExportRendering = "rendering"
	// ExportDone: the print file of the revision is stored.
	ExportDone = "done"
	// ExportFailed: the print file cannot be made; export_error says why.
	ExportFailed = "failed"
)

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
	}, ExportPayload{DesignID: designID, Revision: revision})
}

// PrintKey is the blob key of the print file of a design's revision:
// print/{campaignId}/{designId}_r{revision}.png. Print files are the seller's full-resolution artwork:
// they live outside p/ (mockups, which buyers see) and are only ever handed out as signed URLs.
func PrintKey(campaignID, designID, revision int64) string {
	return "print/" + strconv.FormatInt(campaignID, 10) + "/" + strconv.FormatInt(designID, 10) + "_r" +
		strconv.FormatInt(revision, 10) + ".png"
}

// MockupSourceKey is where the export stores the mockup source of the print file under printKey
// (the print file halved while both sides are at least 4000 px), beside it:
// print/{campaignId}/{designId}_r{revision}_mockup.png.
func MockupSourceKey(printKey string) string {
	return strings.TrimSuffix(printKey, ".png") + "_mockup.png"
}

// BaseSourceKey is where the export stores the base source of the print file under printKey, beside
// it: print/{campaignId}/{designId}_r{revision}_base.png, the design without its custom objects (the
// ones a buyer fills) as a PNG at most 1500 px wide, from which render:mockup makes the base mockups
// (blob.MockupBaseKey). Only a design with custom objects has one.
func BaseSourceKey(printKey string) string {
	return strings.TrimSuffix(printKey, ".png") + "_base.png"
}
