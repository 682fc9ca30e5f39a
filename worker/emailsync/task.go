package emailsync

import (
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
)

// TypeSyncProfiles is the Asynq task type.
const TypeSyncProfiles = "email:sync-profiles"

// Payload is what a sync task carries: the email_sync_runs row.
type Payload struct {
	RunID int64 `json:"run_id"`
}

// NewSyncProfilesJob builds the task of run runID on the worker's default queue. The task id is
// deterministic so the run cannot be queued twice.
func NewSyncProfilesJob(runID int64) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeSyncProfiles, Queue: queue.Name(queue.Worker, queue.Default),
		TaskID: "email-sync-" + strconv.FormatInt(runID, 10), MaxRetry: 8, Timeout: time.Hour,
	}, Payload{RunID: runID})
}

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (Payload, error) {
	return queue.ParsePayload(t, func(p Payload) bool { return p.RunID > 0 })
}
