package sanitize

import (
	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (tasks.SanitizePayload, error) {
	return queue.ParsePayload(t, func(p tasks.SanitizePayload) bool { return p.UploadID > 0 })
}
