package sanitize

import (
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
)

// TypeSanitize is the Asynq task type.
const TypeSanitize = "render:sanitize"

// Payload is what a sanitize task carries: the uploads row, never the bytes.
type Payload struct {
	UploadID int64 `json:"upload_id"`
}

// NewSanitizeJob builds the task for upload id on the renderer's interactive queue (a seller waits
// for it). The task id is deterministic so a repeated ingest call cannot queue it twice.
func NewSanitizeJob(uploadID int64) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeSanitize, Queue: queue.Name(queue.Renderer, queue.Interactive),
		TaskID: "sanitize-" + strconv.FormatInt(uploadID, 10), MaxRetry: 5, Timeout: 5 * time.Minute,
	}, Payload{UploadID: uploadID})
}

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (Payload, error) {
	return queue.ParsePayload(t, func(p Payload) bool { return p.UploadID > 0 })
}
