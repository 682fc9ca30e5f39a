package emailsync

import (
	"encoding/json"
	"fmt"
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
	b, err := json.Marshal(Payload{RunID: runID})
	if err != nil {
		return queue.Job{}, err
	}
	return queue.Job{
		Type: TypeSyncProfiles, Payload: b, Queue: queue.Name(queue.Worker, queue.Default),
		TaskID: "email-sync-" + strconv.FormatInt(runID, 10), MaxRetry: 8, Timeout: time.Hour,
	}, nil
}

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (Payload, error) {
	var p Payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.RunID <= 0 {
		return Payload{}, fmt.Errorf("malformed %s payload %q: %w", TypeSyncProfiles, t.Payload(), asynq.SkipRetry)
	}
	return p, nil
}
