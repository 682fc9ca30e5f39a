package export

import (
	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (tasks.ExportPayload, error) {
	return queue.ParsePayload(t, func(p tasks.ExportPayload) bool { return p.DesignID > 0 && p.Revision > 0 })
}
