package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pressroom/pressroom/bff/envelope"
)

// MsgHashBusy is the answer when every password-hashing slot stayed taken for the configured wait.
const MsgHashBusy = "The server is busy checking passwords. Please try again in a moment."

// HashPassword hashes a password with bcrypt at cost.
func HashPassword(password string, cost int) (string, error) {
	if len(password) > 72 {
		return "", errors.New("password longer than 72 bytes")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// hasher runs bcrypt (hashing a new password or comparing one) at most len(slots) at a time across
// the process, so a burst of sign-ups, resets or logins queues for the CPU instead of taking it all.
// A caller waits for a slot at most wait (or until its request ends), then gets a 503.
type hasher struct {
	cost  int
	slots chan struct{}
	wait  time.Duration
	// runs counts bcrypt runs, hashes and comparisons alike.
	runs atomic.Int64
}

func newHasher(cost, concurrency int, wait time.Duration) *hasher {
	return &hasher{cost: cost, slots: make(chan struct{}, concurrency), wait: wait}
}

// acquire takes a slot; the caller releases it with <-h.slots.
func (h *hasher) acquire(ctx context.Context) error {
	select {
	case h.slots <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(h.wait)
	defer t.Stop()
	select {
	case h.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		e := envelope.Fail(http.StatusServiceUnavailable, MsgHashBusy)
		e.Header = http.Header{"Retry-After": []string{"1"}}
		return e
	}
}

// hash hashes a new password.
func (h *hasher) hash(ctx context.Context, password string) (string, error) {
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer func() { <-h.slots }()
	h.runs.Add(1)
	return HashPassword(password, h.cost)
}

// check reports whether password matches hash.
func (h *hasher) check(ctx context.Context, hash, password string) (bool, error) {
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer func() { <-h.slots }()
	h.runs.Add(1)
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil, nil
}
