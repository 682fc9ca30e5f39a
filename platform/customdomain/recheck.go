package customdomain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/pressroom/pressroom/platform/periodic"
)

// Re-check rules: a domain not verified yet is checked every RecheckEvery for PendingFor after it
// was added (then only the seller's "check now" does); one verified by a check is checked again
// every VerifiedEvery, so a domain whose record went away (or that changed hands) stops being
// served. A row verified without any check (checked_at NULL: the demo seed's, or one the operator
// verified by hand) is trusted until someone checks it.
const (
	PendingFor    = 7 * 24 * time.Hour
	VerifiedEvery = 24 * time.Hour
	// recheckBatch caps the domains one pass checks; the next pass takes the rest.
	recheckBatch = 100
)

// qDue claims the domains due for a check by moving their checked_at, so that workers passing at
// the same time take different rows; the check then records its own time and outcome.
const qDue = `
UPDATE store_domains SET checked_at = now() WHERE id IN (
    SELECT id FROM store_domains
    WHERE (verified_at IS NULL AND created_at > now() - $1 * interval '1 second'
           AND (checked_at IS NULL OR checked_at < now() - $2 * interval '1 second'))
       OR (verified_at IS NOT NULL AND checked_at < now() - $3 * interval '1 second')
    ORDER BY checked_at NULLS FIRST, id
    LIMIT $4
    FOR UPDATE SKIP LOCKED)
RETURNING id`

// CheckDue checks every domain due (see PendingFor and VerifiedEvery) and answers how many it
// checked.
func (c *Checker) CheckDue(ctx context.Context) (int, error) {
	var ids []int64
	err := c.db.SelectContext(ctx, &ids, qDue, PendingFor.Seconds(), c.cfg.RecheckEvery.Seconds(), VerifiedEvery.Seconds(), recheckBatch)
	if err != nil {
		return 0, fmt.Errorf("claim domains due for a check: %w", err)
	}
	var errs []error
	for _, id := range ids {
		if _, err := c.Check(ctx, id); err != nil && !errors.Is(err, ErrNotFound) {
			errs = append(errs, err)
		}
	}
	return len(ids), errors.Join(errs...)
}

// Run checks the domains due every RecheckEvery until ctx ends (the worker runs it).
func (c *Checker) Run(ctx context.Context, log *slog.Logger) error {
	return periodic.Run(ctx, c.cfg.RecheckEvery, log, c.CheckDue, "domain re-check", "domains checked")
}
