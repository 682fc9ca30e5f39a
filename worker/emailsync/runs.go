package emailsync

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"
)

// ErrNoRun means the store has never been synced, or the run id is unknown.
var ErrNoRun = errors.New("no sync run")

// Run is one sync of a store's subscribers to Klaviyo, as the task reads and advances it. The bff
// records a run when the seller asks for one and shows its progress (bff/emailmarketing).
type Run struct {
	ID         int64      `db:"id"`
	StoreID    int64      `db:"store_id"`
	Status     string     `db:"status"`
	Total      int        `db:"total"`
	Done       int        `db:"done"`
	Cursor     int64      `db:"cursor"`
	Error      string     `db:"error"`
	CreatedAt  time.Time  `db:"created_at"`
	UpdatedAt  time.Time  `db:"updated_at"`
	FinishedAt *time.Time `db:"finished_at"`
}

const runColumns = `id, store_id, status, total, done, cursor, error, created_at, updated_at, finished_at`

// runStore is the SQL of the task handler.
type runStore struct{ db *sqlx.DB }

func (s runStore) get(ctx context.Context, id int64) (Run, error) {
	var r Run
	err := s.db.GetContext(ctx, &r, `SELECT `+runColumns+` FROM email_sync_runs WHERE id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, ErrNoRun
	}
	return r, err
}

// connection is a store's sealed Klaviyo key and list.
type connection struct {
	Sealed []byte `db:"private_key_sealed"`
	ListID string `db:"list_id"`
}

// ErrNotConnected means the store has no Klaviyo settings.
var ErrNotConnected = errors.New("the store has not connected Klaviyo")

func (s runStore) connection(ctx context.Context, storeID int64) (connection, error) {
	var c connection
	err := s.db.GetContext(ctx, &c, `SELECT private_key_sealed, list_id FROM email_klaviyo_settings WHERE store_id = $1`, storeID)
	if errors.Is(err, sql.ErrNoRows) {
		return connection{}, ErrNotConnected
	}
	return c, err
}

// start marks r running and recounts its total as what is done plus what is left after the cursor.
func (s runStore) start(ctx context.Context, r Run) (Run, error) {
	const q = `UPDATE email_sync_runs SET status = 'running', updated_at = now(),
    total = done + (SELECT count(*) FROM email_subscribers WHERE store_id = $2 AND status = 'subscribed' AND id > cursor)
WHERE id = $1 RETURNING ` + runColumns
	err := s.db.GetContext(ctx, &r, q, r.ID, r.StoreID)
	return r, err
}

// subscriber is one row the sync sends.
type subscriber struct {
	ID        int64  `db:"id"`
	Email     string `db:"email"`
	FirstName string `db:"first_name"`
	LastName  string `db:"last_name"`
}

func (s runStore) page(ctx context.Context, storeID, after int64, limit int) ([]subscriber, error) {
	const q = `SELECT id, email, first_name, last_name FROM email_subscribers
WHERE store_id = $1 AND status = 'subscribed' AND id > $2 ORDER BY id LIMIT $3`
	var out []subscriber
	err := s.db.SelectContext(ctx, &out, q, storeID, after, limit)
	return out, err
}

// advance records a page sent: the cursor moves from `from` to `to` and done grows by n. It only
// applies while the cursor is still at from, so a page recorded twice counts once.
func (s runStore) advance(ctx context.Context, id, from, to int64, n int) error {
	const q = `UPDATE email_sync_runs SET cursor = $3, done = done + $4, total = GREATEST(total, done + $4), updated_at = now()
WHERE id = $1 AND cursor = $2 AND status = 'running'`
	_, err := s.db.ExecContext(ctx, q, id, from, to, n)
	return err
}

// finish marks the run done, or failed with msg.
func (s runStore) finish(ctx context.Context, id int64, status, msg string) error {
	const q = `UPDATE email_sync_runs SET status = $2, error = $3, finished_at = now(), updated_at = now()
WHERE id = $1 AND status IN ('queued', 'running')`
	_, err := s.db.ExecContext(ctx, q, id, status, msg)
	return err
}
