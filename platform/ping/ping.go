package ping

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
)

// TypePing is the Asynq task type.
const TypePing = "system:ping"

// Payload is what a ping task carries.
type Payload struct {
	PingID int64 `json:"ping_id"`
}

// NewPingJob builds the task for ping id, aimed at service's interactive queue.
func NewPingJob(id int64, s queue.Service) (queue.Job, error) {
	b, err := json.Marshal(Payload{PingID: id})
	if err != nil {
		return queue.Job{}, err
	}
	return queue.Job{
		Type: TypePing, Payload: b, Queue: queue.Name(s, queue.Interactive),
		TaskID: "ping-" + strconv.FormatInt(id, 10), MaxRetry: 3, Timeout: 10 * time.Second,
	}, nil
}

// ErrNotFound means no ping has that id.
var ErrNotFound = errors.New("ping not found")

// ErrUnknownService means a ping was asked of a service that does not consume tasks.
var ErrUnknownService = errors.New("unknown service")

// Ping is one round trip's record.
type Ping struct {
	ID          int64      `db:"id" json:"id"`
	Service     string     `db:"service" json:"service"`
	CreatedAt   time.Time  `db:"created_at" json:"created_at"`
	CompletedAt *time.Time `db:"completed_at" json:"completed_at"`
	CompletedBy string     `db:"completed_by" json:"completed_by"`
}

// Request records a ping for service, asked by user requestedBy (0: no user, e.g. an operator's
// script), and its task in one transaction, and returns the outbox row to dispatch after commit.
func Request(ctx context.Context, db *sqlx.DB, s queue.Service, requestedBy int64) (Ping, int64, error) {
	if s != queue.Worker && s != queue.Renderer {
		return Ping{}, 0, fmt.Errorf("%w %q: want %s or %s", ErrUnknownService, s, queue.Worker, queue.Renderer)
	}
	const q = `INSERT INTO system_pings (service, requested_by) VALUES ($1, NULLIF($2, 0))
RETURNING id, service, created_at, completed_at, completed_by`
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return Ping{}, 0, err
	}
	defer tx.Rollback()
	var p Ping
	if err := tx.GetContext(ctx, &p, q, s, requestedBy); err != nil {
		return Ping{}, 0, fmt.Errorf("record ping: %w", err)
	}
	job, err := NewPingJob(p.ID, s)
	if err != nil {
		return Ping{}, 0, err
	}
	outboxID, err := outbox.Add(ctx, tx, job)
	if err != nil {
		return Ping{}, 0, err
	}
	return p, outboxID, tx.Commit()
}

// Get reads a ping.
func Get(ctx context.Context, db *sqlx.DB, id int64) (Ping, error) {
	const q = `SELECT id, service, created_at, completed_at, completed_by FROM system_pings WHERE id = $1`
	var p Ping
	err := db.GetContext(ctx, &p, q, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Ping{}, ErrNotFound
	}
	return p, err
}

// Handler completes pings on behalf of the service it runs in.
type Handler struct {
	db      *sqlx.DB
	service queue.Service
}

// NewHandler builds the handler for service.
func NewHandler(db *sqlx.DB, s queue.Service) *Handler { return &Handler{db: db, service: s} }

// ProcessTask marks the ping completed. Completing twice (Asynq delivers at least once) keeps the
// first completion.
func (h *Handler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	var p Payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil || p.PingID <= 0 {
		return fmt.Errorf("malformed %s payload %q: %w", TypePing, t.Payload(), asynq.SkipRetry)
	}
	const q = `UPDATE system_pings SET completed_at = now(), completed_by = $2 WHERE id = $1 AND completed_at IS NULL`
	if _, err := h.db.ExecContext(ctx, q, p.PingID, h.service); err != nil {
		return fmt.Errorf("complete ping %d: %w", p.PingID, err)
	}
	return nil
}
