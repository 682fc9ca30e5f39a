package bulk

import (
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
)

// TypeRecord is the Asynq task type of a bulk multi-print-space record.
const TypeRecord = "bulk:record"

// RecordPayload is what a record task carries: the record and the attempt it was queued for.
type RecordPayload struct {
	RecordID int64 `json:"record_id"`
	Attempt  int   `json:"attempt"`
}

// Limits of a bulk task: applying a record or a job reads a few rows and writes a few more; the print
// files are the renderer's work.
const (
	taskTimeout = 2 * time.Minute
	taskRetries = 8
)

// NewRecordJob builds the task of record recordID's attempt on the worker's bulk queue. The task
// id names the record and the attempt, so an attempt is queued once however often the outbox
// relays it, and a restarted record gets a fresh task.
func NewRecordJob(recordID int64, attempt int) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeRecord, Queue: queue.Name(queue.Worker, queue.Bulk),
		TaskID:   "bulk-record-" + strconv.FormatInt(recordID, 10) + "-a" + strconv.Itoa(attempt),
		MaxRetry: taskRetries, Timeout: taskTimeout,
	}, RecordPayload{RecordID: recordID, Attempt: attempt})
}

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (RecordPayload, error) {
	return queue.ParsePayload(t, func(p RecordPayload) bool { return p.RecordID > 0 && p.Attempt > 0 })
}
