package tasks

import (
	"strconv"
	"time"

	"github.com/pressroom/pressroom/platform/queue"
)

// Bulk task types: one bulk multi-print-space record, and one background bulk campaign job.
const (
	TypeBulkRecord   = "bulk:record"
	TypeBulkCampaign = "bulk:campaign"
)

// BulkRecordPayload is what a record task carries: the record and the attempt it was queued for.
type BulkRecordPayload struct {
	RecordID int64 `json:"record_id"`
	Attempt  int   `json:"attempt"`
}

// BulkCampaignPayload is what a campaign job task carries: the job and the attempt it was queued for.
type BulkCampaignPayload struct {
	JobID   int64 `json:"job_id"`
	Attempt int   `json:"attempt"`
}

// Statuses of a bulk record (bulk_records.status); a bulk campaign job (bulk_campaign_jobs.status)
// moves through pending, queued, completed and failed alike.
const (
	// BulkPending: created, not started; start queues it.
	BulkPending = "pending"
	// BulkQueued: its task is on the way or running.
	BulkQueued = "queued"
	// BulkProcessing: the campaign and designs are saved; the print files are being made.
	BulkProcessing = "processing"
	// BulkCompleted: every print file is stored and the results are written.
	BulkCompleted = "completed"
	// BulkFailed: a record check failed, an export failed or the task gave up; message says why.
	BulkFailed = "failed"
	// BulkStopped: the seller stopped it before it was applied.
	BulkStopped = "stopped"
)

// Record types (bulk_records.type); the multi-print-space list shows the first two unless told, the
// campaign import's report the third.
const (
	BulkRegularMultiSpace = "regular_multi_space"
	BulkExpressMultiSpace = "express_multi_space"
	BulkCampaignImport    = "campaign_import"
)

// ImportPrice is how an imported row's campaign is priced in its store (bulk_records.price): a
// commerce/pricing mode with its margin or price, in minor units of the store's currency.
type ImportPrice struct {
	Mode   string `json:"mode"`
	Margin int64  `json:"margin,omitempty"`
	Price  int64  `json:"price,omitempty"`
}

// MsgCampaignNotFound is what a bulk record or job fails with when its template campaign is not
// its owner's, and what the bff answers when a bulk call names such a campaign.
const MsgCampaignNotFound = "Campaign not found"

// Limits of a bulk task: applying a record or a job reads a few rows and writes a few more; the print
// files are the renderer's work.
const (
	bulkTimeout = 2 * time.Minute
	bulkRetries = 8
)

// NewBulkRecordJob builds the task of record recordID's attempt on the worker's bulk queue. The task
// id names the record and the attempt, so an attempt is queued once however often the outbox
// relays it, and a restarted record gets a fresh task.
func NewBulkRecordJob(recordID int64, attempt int) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeBulkRecord, Queue: queue.Name(queue.Worker, queue.Bulk),
		TaskID:   "bulk-record-" + strconv.FormatInt(recordID, 10) + "-a" + strconv.Itoa(attempt),
		MaxRetry: bulkRetries, Timeout: bulkTimeout,
	}, BulkRecordPayload{RecordID: recordID, Attempt: attempt})
}

// NewBulkCampaignJob builds the task of job jobID's attempt on the worker's bulk queue; the task id
// names the job and the attempt.
func NewBulkCampaignJob(jobID int64, attempt int) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeBulkCampaign, Queue: queue.Name(queue.Worker, queue.Bulk),
		TaskID:   "bulk-campaign-" + strconv.FormatInt(jobID, 10) + "-a" + strconv.Itoa(attempt),
		MaxRetry: bulkRetries, Timeout: bulkTimeout,
	}, BulkCampaignPayload{JobID: jobID, Attempt: attempt})
}
