package tasks

import (
	"strconv"
	"time"

	"github.com/pressroom/pressroom/platform/queue"
)

// Mockup task types: a flat mockup drawn in Go, and a 3D mockup drawn by the Chrome pool.
const (
	TypeMockup   = "render:mockup"
	TypeMockup3D = "render:mockup3d"
)

// MockupPayload is what a mockup task carries: the campaign_mockups row and the design revision to show.
type MockupPayload struct {
	MockupID int64 `json:"campaign_mockup_id"`
	Revision int64 `json:"revision"`
}

// States of a campaign mockup (campaign_mockups.status).
const (
	MockupPending = "pending"
	MockupDone    = "done"
	MockupFailed  = "failed"
)

// Limits of a mockup task: a 2000 px mockup of a cached template takes well under a second; decoding
// a 13500 px print file a few; a 3D render seconds more in software WebGL, longer when the pool is busy.
const (
	mockupTimeout   = 2 * time.Minute
	mockup3DTimeout = 3 * time.Minute
	mockupRetries   = 5
)

// NewMockupJob builds the task rendering campaign mockup mockupID for revision of its design on the
// renderer queue of the given priority: render:mockup3d for a 3D template (one with a GLB model),
// else render:mockup. The task id names the row and the revision, so a revision is queued once
// however often the outbox relays it; retries, the count of the seller's retries of a failed
// mockup, is added to it when positive, as Asynq keeps a failed task's id for days.
func NewMockupJob(threeD bool, mockupID, revision, retries int64, priority queue.Priority) (queue.Job, error) {
	typ, idPrefix, timeout := TypeMockup, "mockup-", mockupTimeout
	if threeD {
		typ, idPrefix, timeout = TypeMockup3D, "mockup3d-", mockup3DTimeout
	}
	id := idPrefix + strconv.FormatInt(mockupID, 10) + "-r" + strconv.FormatInt(revision, 10)
	if retries > 0 {
		id += "-retry" + strconv.FormatInt(retries, 10)
	}
	return queue.NewJob(queue.Job{
		Type: typ, Queue: queue.Name(queue.Renderer, priority),
		TaskID: id, MaxRetry: mockupRetries, Timeout: timeout,
	}, MockupPayload{MockupID: mockupID, Revision: revision})
}
