package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/queue"
)

// Add records job in the outbox as part of tx and returns its row id for Dispatch.
func Add(ctx context.Context, tx sqlx.ExtContext, job queue.Job) (int64, error) {
	const q = `
INSERT INTO task_outbox (task_type, payload, queue, task_id, max_retry, timeout_ms)
VALUES ($1, $2, $3, $4, $5, $6)
RETURNING id`
	var id int64
	err := sqlx.GetContext(ctx, tx, &id, q, job.Type, job.Payload, job.Queue, job.TaskID, job.MaxRetry, job.Timeout.Milliseconds())
	if err != nil {
		return 0, fmt.Errorf("add %s to outbox: %w", job.Type, err)
	}
	return id, nil
}

// Config tunes the relay loop.
type Config struct {
	// PollInterval is how often the relay looks for unsent rows (PRESSROOM_OUTBOX_POLL_INTERVAL,
	// default 500ms). Fresh rows are normally dispatched at once by the process that added them;
	// the poll only catches what that process could not send.
	PollInterval time.Duration
	// BatchSize caps rows sent per poll (PRESSROOM_OUTBOX_BATCH_SIZE, default 200).
	BatchSize int
	// Retention is how long sent rows are kept for inspection (PRESSROOM_OUTBOX_RETENTION, default 168h).
	Retention time.Duration
}

// DefaultConfig polls twice a second and keeps a week of sent rows.
func DefaultConfig() Config {
	return Config{PollInterval: 500 * time.Millisecond, BatchSize: 200, Retention: 7 * 24 * time.Hour}
}

// LoadConfig reads the PRESSROOM_OUTBOX_* variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Duration(&cfg.PollInterval, "PRESSROOM_OUTBOX_POLL_INTERVAL")
	r.Int(&cfg.BatchSize, "PRESSROOM_OUTBOX_BATCH_SIZE")
	r.Duration(&cfg.Retention, "PRESSROOM_OUTBOX_RETENTION")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	switch {
	case c.PollInterval <= 0:
		return errors.New("PRESSROOM_OUTBOX_POLL_INTERVAL must be positive")
	case c.BatchSize <= 0:
		return errors.New("PRESSROOM_OUTBOX_BATCH_SIZE must be positive")
	case c.Retention <= 0:
		return errors.New("PRESSROOM_OUTBOX_RETENTION must be positive")
	}
	return nil
}

// Relay moves outbox rows into Asynq.
type Relay struct {
	cfg    Config
	db     *sqlx.DB
	client *asynq.Client
	log    *slog.Logger
}

// NewRelay validates cfg and builds a Relay.
func NewRelay(cfg Config, db *sqlx.DB, client *asynq.Client, log *slog.Logger) (*Relay, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Relay{cfg: cfg, db: db, client: client, log: log}, nil
}

type row struct {
	ID        int64  `db:"id"`
	Type      string `db:"task_type"`
	Payload   []byte `db:"payload"`
	Queue     string `db:"queue"`
	TaskID    string `db:"task_id"`
	MaxRetry  int    `db:"max_retry"`
	TimeoutMS int64  `db:"timeout_ms"`
}

// Dispatch sends the given unsent rows now, or up to a batch of any unsent rows when ids is empty.
// It returns how many were sent; rows another relay holds are skipped, not waited for.
func (r *Relay) Dispatch(ctx context.Context, ids ...int64) (int, error) {
	const pick = `
SELECT id, task_type, payload, queue, task_id, max_retry, timeout_ms
FROM task_outbox
WHERE sent_at IS NULL AND (coalesce(cardinality($1::bigint[]), 0) = 0 OR id = ANY($1))
ORDER BY id
LIMIT $2
FOR UPDATE SKIP LOCKED`
	const sent = `UPDATE task_outbox SET sent_at = now(), attempts = attempts + 1, last_error = '' WHERE id = $1`
	const failed = `UPDATE task_outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`

	tx, err := r.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("dispatch outbox: %w", err)
	}
	defer tx.Rollback()
	var rows []row
	if err := tx.SelectContext(ctx, &rows, pick, pq.Array(ids), r.cfg.BatchSize); err != nil {
		return 0, fmt.Errorf("dispatch outbox: %w", err)
	}
	n := 0
	for _, rw := range rows {
		job := queue.Job{Type: rw.Type, Payload: rw.Payload, Queue: rw.Queue, TaskID: rw.TaskID,
			MaxRetry: rw.MaxRetry, Timeout: time.Duration(rw.TimeoutMS) * time.Millisecond}
		if err := job.Enqueue(ctx, r.client); err != nil {
			r.log.Warn("outbox row not sent", "id", rw.ID, "type", rw.Type, "err", err)
			if _, uerr := tx.ExecContext(ctx, failed, rw.ID, err.Error()); uerr != nil {
				return n, fmt.Errorf("dispatch outbox: %w", uerr)
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, sent, rw.ID); err != nil {
			return n, fmt.Errorf("dispatch outbox: %w", err)
		}
		n++
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("dispatch outbox: %w", err)
	}
	return n, nil
}

// Run polls until ctx ends, sending what processes that added rows could not, and pruning sent
// rows past the retention.
func (r *Relay) Run(ctx context.Context) error {
	const prune = `DELETE FROM task_outbox WHERE sent_at < now() - make_interval(secs => $1)`
	tick := time.NewTicker(r.cfg.PollInterval)
	defer tick.Stop()
	lastPrune := time.Time{}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if n, err := r.Dispatch(ctx); err != nil && ctx.Err() == nil {
			r.log.Error("outbox relay", "err", err)
		} else if n > 0 {
			r.log.Info("outbox relay sent leftover tasks", "count", n)
		}
		if time.Since(lastPrune) > time.Minute {
			lastPrune = time.Now()
			if _, err := r.db.ExecContext(ctx, prune, r.cfg.Retention.Seconds()); err != nil && ctx.Err() == nil {
				r.log.Error("outbox prune", "err", err)
			}
		}
	}
}
