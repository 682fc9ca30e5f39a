// Package membudget bounds the memory the renderer's tasks spend on decoded pixels. A Budget is a
// weighted semaphore over bytes: before a task decodes an image or allocates a canvas it acquires
// the bytes it is about to hold, and releases them when it is done, so that tasks running at once
// never hold more than the budget between them; a task that would go over waits for others to
// finish. A single job bigger than the whole budget runs alone rather than never.
//
// The service puts its Budget into each task's context (WithBudget); handlers call Acquire with
// their estimate, which is free when the context carries no budget (the command line, tests).
package membudget

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/semaphore"
)

// Budget is the bytes of decoded pixels the tasks of one process may hold at once.
type Budget struct {
	total int64
	sem   *semaphore.Weighted

	mu sync.Mutex
	// held is the bytes held now; since, those acquired since onIdle last ran.
	held, since int64
	idleAfter   int64
	onIdle      func()
}

// OnIdle has f run whenever the budget goes idle (the last bytes held are given back) after at
// least after bytes were acquired since f last ran: the renderer returns memory to the system then,
// once per big job or per batch of small ones. f runs in the release that made the budget idle,
// before those bytes can be acquired again, so that a big job waiting for them does not allocate
// while the last one's memory is still the process's. Call it before the budget is used.
func (b *Budget) OnIdle(after int64, f func()) { b.idleAfter, b.onIdle = after, f }

// New is a budget of total bytes; total must be positive.
func New(total int64) (*Budget, error) {
	if total <= 0 {
		return nil, fmt.Errorf("membudget: a budget of %d bytes: want a positive size", total)
	}
	return &Budget{total: total, sem: semaphore.NewWeighted(total)}, nil
}

// Total is the budget's size in bytes.
func (b *Budget) Total() int64 { return b.total }

// Acquire waits until n bytes are free (all of them when n exceeds the budget) and returns the
// function that gives them back, which must be called once. It fails only when ctx ends first.
func (b *Budget) Acquire(ctx context.Context, n int64) (release func(), err error) {
	n = min(max(n, 0), b.total)
	if n == 0 {
		return func() {}, nil
	}
	if err := b.sem.Acquire(ctx, n); err != nil {
		return nil, fmt.Errorf("membudget: waiting for %d bytes: %w", n, err)
	}
	b.mu.Lock()
	b.held += n
	b.since += n
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		b.held -= n
		idle := b.held == 0 && b.onIdle != nil && b.since >= b.idleAfter
		if idle {
			b.since = 0
		}
		b.mu.Unlock()
		if idle {
			b.onIdle()
		}
		b.sem.Release(n)
	}, nil
}

type ctxKey struct{}

// WithBudget returns ctx carrying b, for Acquire.
func WithBudget(ctx context.Context, b *Budget) context.Context {
	return context.WithValue(ctx, ctxKey{}, b)
}

// Acquire acquires n bytes of the budget ctx carries (see Budget.Acquire); without one it returns
// at once.
func Acquire(ctx context.Context, n int64) (release func(), err error) {
	b, _ := ctx.Value(ctxKey{}).(*Budget)
	if b == nil {
		return func() {}, nil
	}
	return b.Acquire(ctx, n)
}

// RGBA is the size of a decoded w x h image at four bytes a pixel.
func RGBA(w, h int) int64 { return 4 * int64(max(w, 0)) * int64(max(h, 0)) }
