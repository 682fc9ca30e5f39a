package auth

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/pressroom/pressroom/bff/envelope"
)

// With every slot taken, a hash waits at most its wait and answers 503, or ends with its request.
func TestHasherIsBounded(t *testing.T) {
	h := newHasher(10, 2, 20*time.Millisecond)
	h.slots <- struct{}{}
	h.slots <- struct{}{}
	_, err := h.hash(context.Background(), "long-enough-1")
	var e *envelope.Error
	if !errors.As(err, &e) || e.Status != http.StatusServiceUnavailable || e.Message != MsgHashBusy {
		t.Fatalf("full hasher: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h.wait = time.Hour
	if _, err := h.check(ctx, "x", "y"); !errors.Is(err, context.Canceled) {
		t.Fatalf("ended request: %v", err)
	}
	if h.runs.Load() != 0 {
		t.Fatal("a refused hash ran")
	}
	<-h.slots
	if _, err := h.hash(context.Background(), "long-enough-1"); err != nil || h.runs.Load() != 1 {
		t.Fatalf("a free slot: %v, %d runs", err, h.runs.Load())
	}
}
