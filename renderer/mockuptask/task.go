package mockuptask

import (
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
)

// TypeMockup is the Asynq task type.
const TypeMockup = "render:mockup"

// Payload is what a mockup task carries: the campaign_mockups row and the design revision to show.
type Payload struct {
	MockupID int64 `json:"campaign_mockup_id"`
	Revision int64 `json:"revision"`
}

// Limits of a mockup task: a 2000 px mockup of a cached template takes well under a second; decoding
// a 13500 px print file a few.
const (
	mockupTimeout = 2 * time.Minute
	mockupRetries = 5
)

// NewMockupJob builds the task rendering campaign mockup mockupID for revision of its design on the
// renderer queue of the given priority. The task id names the row and the revision, so a revision is
// queued once however often the outbox relays it.
func NewMockupJob(mockupID, revision int64, priority queue.Priority) (queue.Job, error) {
	return queue.NewJob(queue.Job{
		Type: TypeMockup, Queue: queue.Name(queue.Renderer, priority),
		TaskID:   "mockup-" + strconv.FormatInt(mockupID, 10) + "-r" + strconv.FormatInt(revision, 10),
		MaxRetry: mockupRetries, Timeout: mockupTimeout,
	}, Payload{MockupID: mockupID, Revision: revision})
}

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (Payload, error) {
	return queue.ParsePayload(t, func(p Payload) bool { return p.MockupID > 0 && p.Revision > 0 })
}
