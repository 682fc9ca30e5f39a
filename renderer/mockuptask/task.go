package mockuptask

import (
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
)

// Task types: a flat mockup drawn in Go, and a 3D mockup drawn by the Chrome pool.
const (
	TypeMockup   = "render:mockup"
	TypeMockup3D = "render:mockup3d"
)

// Payload is what a mockup task carries: the campaign_mockups row and the design revision to show.
type Payload struct {
	MockupID int64 `json:"campaign_mockup_id"`
	Revision int64 `json:"revision"`
}

// Limits of a mockup task: a 2000 px mockup of a cached template takes well under a second; decoding
// a 13500 px print file a few; a 3D render seconds more in software WebGL, longer when the pool is busy.
const (
	mockupTimeout   = 2 * time.Minute
	mockup3DTimeout = 3 * time.Minute
	mockupRetries   = 5
)

// NewMockupJob builds the task rendering campaign mockup mockupID for revision of its design on the
// renderer queue of the given priority. The task id names the row and the revision, so a revision is
// queued once however often the outbox relays it.
func NewMockupJob(mockupID, revision int64, priority queue.Priority) (queue.Job, error) {
	return jobFor(false, mockupID, revision, 0, priority)
}

// NewMockup3DJob is NewMockupJob for a mockup of a 3D template (one with a GLB model).
func NewMockup3DJob(mockupID, revision int64, priority queue.Priority) (queue.Job, error) {
	return jobFor(true, mockupID, revision, 0, priority)
}

// jobFor is the task of mockup mockupID for revision: render:mockup3d for a 3D template, else
// render:mockup. Queue adds it with retries 0; Requeue with the count of the seller's retries, which
// its task id adds, as Asynq keeps the failed task's id for days.
func jobFor(threeD bool, mockupID, revision, retries int64, priority queue.Priority) (queue.Job, error) {
	if threeD {
		return newJob(TypeMockup3D, "mockup3d-", mockup3DTimeout, mockupID, revision, retries, priority)
	}
	return newJob(TypeMockup, "mockup-", mockupTimeout, mockupID, revision, retries, priority)
}

func newJob(typ, idPrefix string, timeout time.Duration, mockupID, revision, retries int64, priority queue.Priority) (queue.Job, error) {
	id := idPrefix + strconv.FormatInt(mockupID, 10) + "-r" + strconv.FormatInt(revision, 10)
	if retries > 0 {
		id += "-retry" + strconv.FormatInt(retries, 10)
	}
	return queue.NewJob(queue.Job{
		Type: typ, Queue: queue.Name(queue.Renderer, priority),
		TaskID: id, MaxRetry: mockupRetries, Timeout: timeout,
	}, Payload{MockupID: mockupID, Revision: revision})
}

// parsePayload reads a task's payload; a malformed one fails with asynq.SkipRetry.
func parsePayload(t *asynq.Task) (Payload, error) {
	return queue.ParsePayload(t, func(p Payload) bool { return p.MockupID > 0 && p.Revision > 0 })
}
