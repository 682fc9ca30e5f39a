package app

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/ping"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/testinfra"
)

func newWorker(t *testing.T) (*App, Config) {
	t.Helper()
	db, dbURL := testinfra.Postgres(t)
	db.Close()
	addr, n := testinfra.Redis(t)
	cfg, err := LoadConfig(env.Map(map[string]string{
		"PRESSROOM_DATABASE_URL": dbURL, "PRESSROOM_REDIS_ADDR": addr, "PRESSROOM_REDIS_DB": strconv.Itoa(n),
		"PRESSROOM_OUTBOX_POLL_INTERVAL": "50ms", "PRESSROOM_QUEUE_SHUTDOWN_TIMEOUT": "5s",
	}))
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, cfg
}

// runWorker runs the worker until the test ends and waits for it to stop.
func runWorker(t *testing.T, a *App) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("worker stopped with %v", err)
		}
	})
}

func waitCompleted(t *testing.T, a *App, id int64) ping.Ping {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		p, err := ping.Get(context.Background(), a.db, id)
		if err != nil {
			t.Fatal(err)
		}
		if p.CompletedAt != nil {
			return p
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("ping %d not completed within 30s", id)
	return ping.Ping{}
}

// TestPingRoundTrip sends a ping the way the bff does (a committed outbox row, dispatched at once)
// and waits for the worker, through Redis, to complete it in Postgres.
func TestPingRoundTrip(t *testing.T) {
	a, _ := newWorker(t)
	runWorker(t, a)
	ctx := context.Background()
	p, outboxID, err := ping.Request(ctx, a.db, queue.Worker, 0)
	if err == nil {
		_, err = a.relay.Dispatch(ctx, outboxID)
	}
	if err != nil {
		t.Fatal(err)
	}
	if got := waitCompleted(t, a, p.ID); got.CompletedBy != string(queue.Worker) {
		t.Fatalf("completed by %q, want worker", got.CompletedBy)
	}
}

// TestRelaySendsLeftovers covers a producer that committed its outbox row but died before
// dispatching it: the worker's relay loop sends it.
func TestRelaySendsLeftovers(t *testing.T) {
	a, _ := newWorker(t)
	p, _, err := ping.Request(context.Background(), a.db, queue.Worker, 0)
	if err != nil {
		t.Fatal(err)
	}
	runWorker(t, a)
	waitCompleted(t, a, p.ID)
	var attempts int
	if err := a.db.Get(&attempts, `SELECT attempts FROM task_outbox WHERE task_id = $1`, "ping-"+strconv.FormatInt(p.ID, 10)); err != nil || attempts != 1 {
		t.Fatalf("outbox attempts = %d, %v; want sent exactly once", attempts, err)
	}
}

// TestDuplicateDeliveryIsHarmless delivers the same ping twice: the first completion stands.
func TestDuplicateDeliveryIsHarmless(t *testing.T) {
	a, _ := newWorker(t)
	p, _, err := ping.Request(context.Background(), a.db, queue.Worker, 0)
	if err != nil {
		t.Fatal(err)
	}
	job, _ := ping.NewPingJob(p.ID, queue.Worker)
	h := ping.NewHandler(a.db, queue.Worker)
	if err := h.ProcessTask(context.Background(), job.Task()); err != nil {
		t.Fatal(err)
	}
	first, _ := ping.Get(context.Background(), a.db, p.ID)
	time.Sleep(10 * time.Millisecond)
	if err := h.ProcessTask(context.Background(), job.Task()); err != nil {
		t.Fatal(err)
	}
	second, _ := ping.Get(context.Background(), a.db, p.ID)
	if !first.CompletedAt.Equal(*second.CompletedAt) {
		t.Fatalf("second delivery changed completion: %v -> %v", first.CompletedAt, second.CompletedAt)
	}
}

func TestMalformedPayloadIsNotRetried(t *testing.T) {
	a, _ := newWorker(t)
	for _, payload := range []string{"", "{", `{"ping_id":"x"}`, `{"ping_id":0}`} {
		err := ping.NewHandler(a.db, queue.Worker).ProcessTask(context.Background(), asynq.NewTask(ping.TypePing, []byte(payload)))
		if !errors.Is(err, asynq.SkipRetry) {
			t.Errorf("payload %q: err = %v, want SkipRetry", payload, err)
		}
	}
}
