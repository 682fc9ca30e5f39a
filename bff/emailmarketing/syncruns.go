package emailmarketing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/worker/tasks"
)

// errNoSyncRun means the store has never been synced.
var errNoSyncRun = errors.New("no sync run")

// SyncRun is one sync of a store's subscribers to Klaviyo, as the settings screen shows its
// progress; the worker's email:sync-profiles task advances it.
type SyncRun struct {
	ID         int64      `db:"id" json:"id"`
	StoreID    int64      `db:"store_id" json:"store_id"`
	Status     string     `db:"status" json:"status"`
	Total      int        `db:"total" json:"total"`
	Done       int        `db:"done" json:"done"`
	Error      string     `db:"error" json:"error"`
	CreatedAt  time.Time  `db:"created_at" json:"created_at"`
	UpdatedAt  time.Time  `db:"updated_at" json:"updated_at"`
	FinishedAt *time.Time `db:"finished_at" json:"finished_at"`
}

const syncRunColumns = `id, store_id, status, total, done, error, created_at, updated_at, finished_at`

// requestSyncRun records a queued run for storeID, asked by userID, and its task in one
// transaction, and returns the outbox row to dispatch after commit (0 when none was added). When a
// run of the store is already queued or running, that run is returned instead and nothing is added.
func requestSyncRun(ctx context.Context, db *sqlx.DB, storeID, userID int64) (SyncRun, int64, error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return SyncRun{}, 0, err
	}
	defer tx.Rollback()
	const q = `INSERT INTO email_sync_runs (store_id, requested_by, total)
SELECT $1, NULLIF($2, 0)::bigint, count(*) FROM email_subscribers WHERE store_id = $1 AND status = 'subscribed'
ON CONFLICT (store_id) WHERE status IN ('queued', 'running') DO NOTHING
RETURNING ` + syncRunColumns
	var r SyncRun
	err = tx.GetContext(ctx, &r, q, storeID, userID)
	if errors.Is(err, sql.ErrNoRows) {
		r, err = latestSyncRun(ctx, db, storeID)
		return r, 0, err
	}
	if err != nil {
		return SyncRun{}, 0, fmt.Errorf("record sync run of store %d: %w", storeID, err)
	}
	job, err := tasks.NewSyncProfilesJob(r.ID)
	if err != nil {
		return SyncRun{}, 0, err
	}
	outboxID, err := outbox.Add(ctx, tx, job)
	if err != nil {
		return SyncRun{}, 0, err
	}
	return r, outboxID, tx.Commit()
}

// latestSyncRun is the store's newest run.
func latestSyncRun(ctx context.Context, db sqlx.QueryerContext, storeID int64) (SyncRun, error) {
	var r SyncRun
	err := sqlx.GetContext(ctx, db, &r, `SELECT `+syncRunColumns+` FROM email_sync_runs WHERE store_id = $1 ORDER BY id DESC LIMIT 1`, storeID)
	if errors.Is(err, sql.ErrNoRows) {
		return SyncRun{}, errNoSyncRun
	}
	return r, err
}
