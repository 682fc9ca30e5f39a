package mockuptask

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
)

// Errors of Requeue.
var (
	// ErrMockupNotFound: the campaign has no mockup of that id.
	ErrMockupNotFound = errors.New("mockuptask: no such mockup in the campaign")
	// ErrNotFailed: the mockup is done; only a failed one is queued again.
	ErrNotFailed = errors.New("mockuptask: the mockup has not failed")
	// ErrDesignChanged: the design has moved past the mockup's revision and its print file is not
	// made yet (or failed), so the mockup would show an old design; the new print file queues it.
	ErrDesignChanged = errors.New("mockuptask: the design has changed since the mockup failed")
)

// Requeue queues failed mockup mockupID of campaign campaignID again in tx, at queue.Interactive
// priority since a retry is always the seller's: the row is made pending for its revision and the
// same task as Queue's, under a task id of its own, is added to the outbox. A mockup already pending
// is left as it is (a second request while the first is queued adds nothing): the answer is then 0.
// It returns the outbox id of the task it added.
func Requeue(ctx context.Context, tx *sqlx.Tx, campaignID, mockupID int64) (int64, error) {
	const load = `
SELECT m.status, m.design_revision, d.revision = m.design_revision AND d.export_status = 'done' AS current,
	coalesce(t.design_json->>'glb', '') <> '' AS three_d
FROM campaign_mockups m
JOIN campaign_designs d ON d.id = m.design_id
JOIN mockup_templates t ON t.id = m.mockup_template_id
WHERE m.id = $1 AND m.campaign_id = $2
FOR UPDATE OF m`
	var r struct {
		Status   string `db:"status"`
		Revision int64  `db:"design_revision"`
		Current  bool   `db:"current"`
		ThreeD   bool   `db:"three_d"`
	}
	err := tx.GetContext(ctx, &r, load, mockupID, campaignID)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, ErrMockupNotFound
	case err != nil:
		return 0, fmt.Errorf("load campaign mockup %d: %w", mockupID, err)
	case r.Status == StatusPending:
		return 0, nil
	case r.Status != StatusFailed:
		return 0, ErrNotFailed
	case !r.Current:
		return 0, ErrDesignChanged
	}
	const pend = `UPDATE campaign_mockups SET status = 'pending', error = '', retries = retries + 1, updated_at = now()
WHERE id = $1 RETURNING retries`
	var retries int64
	if err := tx.GetContext(ctx, &retries, pend, mockupID); err != nil {
		return 0, fmt.Errorf("make campaign mockup %d pending: %w", mockupID, err)
	}
	job, err := jobFor(r.ThreeD, mockupID, r.Revision, retries, queue.Interactive)
	if err != nil {
		return 0, err
	}
	return outbox.Add(ctx, tx, job)
}
