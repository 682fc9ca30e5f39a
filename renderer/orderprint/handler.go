package orderprint

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/taskrun"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Messages a failed item carries; the review screen shows them as they are.
const (
	MsgMissingSource = "A file of this design is missing from storage."
	MsgCannotRender  = "This design cannot be printed."
	MsgBadPrintFile  = "The print file is not a readable PNG."
	MsgGaveUp        = "The print file could not be prepared. Re-render it or replace it."
)

// deps are what both handlers use.
type deps struct {
	db     *sqlx.DB
	store  blob.Store
	limits imagelimit.Config
	log    *slog.Logger
}

func newDeps(db *sqlx.DB, store blob.Store, limits imagelimit.Config, log *slog.Logger) (deps, error) {
	if db == nil || store == nil {
		return deps{}, errors.New("orderprint: database and blob store are required")
	}
	if err := limits.Validate(); err != nil {
		return deps{}, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return deps{db: db, store: store, limits: limits, log: log}, nil
}

// finish turns a step's error into the task's: a failure is recorded and not retried, a passing
// error is retried and recorded as given up on the last attempt.
func (d deps) finish(ctx context.Context, p tasks.OrderPayload, typ string, err error) error {
	var f *taskrun.Failure
	switch {
	case err == nil:
		return nil
	case errors.As(err, &f):
		if ferr := d.fail(ctx, p, f.Msg); ferr != nil {
			return ferr
		}
		return fmt.Errorf("%s item %d r%d: %w: %w", typ, p.ItemID, p.Revision, err, asynq.SkipRetry)
	case queue.LastAttempt(ctx):
		if ferr := d.fail(ctx, p, MsgGaveUp); ferr != nil {
			return errors.Join(err, ferr)
		}
	}
	return fmt.Errorf("%s item %d r%d: %w", typ, p.ItemID, p.Revision, err)
}

// fail records the item's revision as failed with msg.
func (d deps) fail(ctx context.Context, p tasks.OrderPayload, msg string) error {
	const q = `UPDATE design_order_items SET print_status = 'failed', print_error = $3, updated_at = now()
WHERE id = $1 AND revision = $2 AND print_status = 'pending'`
	if _, err := d.db.ExecContext(ctx, q, p.ItemID, p.Revision, msg); err != nil {
		return fmt.Errorf("mark item %d failed: %w", p.ItemID, err)
	}
	return nil
}
