package outbox

import (
	"context"
	"log/slog"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
)

func TestDispatchKeepsRowsWhileRedisIsAway(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	addr, n := testinfra.Redis(t)
	ctx := context.Background()
	job := queue.Job{Type: "test:job", Payload: []byte(`{"id":1}`), Queue: "worker.default", TaskID: "test-1", MaxRetry: 2}
	tx := db.MustBegin()
	id, err := Add(ctx, tx, job)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	away := asynq.NewClient(asynq.RedisClientOpt{Addr: "127.0.0.1:1"})
	defer away.Close()
	r, err := NewRelay(DefaultConfig(), db, away, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if sent, err := r.Dispatch(ctx, id); err != nil || sent != 0 {
		t.Fatalf("dispatch without Redis: sent %d, err %v", sent, err)
	}
	var row struct {
		Sent     bool   `db:"sent"`
		Attempts int    `db:"attempts"`
		LastErr  string `db:"last_error"`
	}
	if err := db.Get(&row, `SELECT sent_at IS NOT NULL AS sent, attempts, last_error FROM task_outbox WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if row.Sent || row.Attempts != 1 || row.LastErr == "" {
		t.Fatalf("after failed dispatch: %+v", row)
	}

	opt := asynq.RedisClientOpt{Addr: addr, DB: n}
	back := asynq.NewClient(opt)
	defer back.Close()
	r, _ = NewRelay(DefaultConfig(), db, back, slog.New(slog.DiscardHandler))
	if sent, err := r.Dispatch(ctx); err != nil || sent != 1 {
		t.Fatalf("dispatch leftovers: sent %d, err %v", sent, err)
	}
	// A second dispatch finds nothing: the row is marked sent.
	if sent, err := r.Dispatch(ctx); err != nil || sent != 0 {
		t.Fatalf("second dispatch: sent %d, err %v", sent, err)
	}
	insp := asynq.NewInspector(opt)
	defer insp.Close()
	info, err := insp.GetTaskInfo("worker.default", "test-1")
	if err != nil || info.MaxRetry != 2 || string(info.Payload) != `{"id":1}` {
		t.Fatalf("task in Redis = %+v, %v", info, err)
	}
}
