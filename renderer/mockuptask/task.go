package mockuptask

import (
	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (tasks.MockupPayload, error) {
	return queue.ParsePayload(t, func(p tasks.MockupPayload) bool { return p.MockupID > 0 && p.Revision > 0 })
}
