package periodic

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"
)

// TestRun: the first pass runs at once, a failing pass does not stop the loop, and the end of ctx
// returns nil.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	pass := func(context.Context) (int, error) {
		calls++
		if calls == 3 {
			cancel()
		}
		if calls == 1 {
			return 0, errors.New("a passing failure")
		}
		return 1, nil
	}
	done := make(chan error, 1)
	go func() { done <- Run(ctx, time.Millisecond, slog.New(slog.DiscardHandler), pass, "failed", "done") }()
	select {
	case err := <-done:
		// A tick ready beside the cancelled context may run one more pass.
		if err != nil || calls < 3 || calls > 4 {
			t.Fatalf("Run = %v after %d passes, want nil after 3 or 4", err, calls)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not end with its context")
	}

	// An hour-long interval still runs the first pass before waiting.
	ctx2, cancel2 := context.WithCancel(context.Background())
	first := make(chan struct{})
	go Run(ctx2, time.Hour, slog.New(slog.DiscardHandler), func(context.Context) (int, error) {
		close(first)
		return 0, nil
	}, "failed", "done")
	select {
	case <-first:
	case <-time.After(10 * time.Second):
		t.Fatal("no pass at start")
	}
	cancel2()
}
