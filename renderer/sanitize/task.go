package sanitize

import (
	"encoding/json"
	"fmt"
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
	b, err := json.Marshal(Payload{UploadID: uploadID})
	if err != nil {
		return queue.Job{}, err
	}
	return queue.Job{
		Type: TypeSanitize, Payload: b, Queue: queue.Name(queue.Renderer, queue.Interactive),
		TaskID: "sanitize-" + strconv.FormatInt(uploadID, 10), MaxRetry: 5, Timeout: 5 * time.Minute,
	}, nil
}

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (Payload, error) {
	var p Payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.UploadID <= 0 {
		return Payload{}, fmt.Errorf("malformed %s payload %q: %w", TypeSanitize, t.Payload(), asynq.SkipRetry)
	}
	return p, nil
}
