package emailsync

import (
	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (tasks.SyncProfilesPayload, error) {
	return queue.ParsePayload(t, func(p tasks.SyncProfilesPayload) bool { return p.RunID > 0 })
}
