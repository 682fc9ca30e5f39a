package bulk

import (
	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

// parsePayload reads a record task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (tasks.BulkRecordPayload, error) {
	return queue.ParsePayload(t, func(p tasks.BulkRecordPayload) bool { return p.RecordID > 0 && p.Attempt > 0 })
}
