package shop

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"
)

// counter holds counts per key in memory and adds them to their rows in one statement per flush,
// so counting costs a page a map update, not a write: the searches of Search Keywords
// (docs/search-keywords.md) and the store visits of the overview (docs/overview.md). The counts
// held are bounded: past maxKeys different keys a new one waits for the next flush and is dropped
// meanwhile (and logged), while known ones keep counting. Several storefront processes add to the
// same rows; each flush writes its rows in key order, so two never wait on each other.
type counter[K comparable, C any] struct {
	what    string // for the logs: "search keywords"
	log     *slog.Logger
	every   time.Duration
	maxKeys int
	flushAt int // this many keys start a flush at once instead of at the next tick
	full    chan struct{}
	// merge answers the counts of a key counted in older and then in newer.
	merge func(older, newer C) C
	// compare orders keys as write receives them.
	compare func(a, b K) int
	// write adds a batch of counts (counts[i] of keys[i]) to their rows.
	write func(ctx context.Context, keys []K, counts []C) error

	mu      sync.Mutex
	pending map[K]C
	dropped int
}

func newCounter[K comparable, C any](what string, log *slog.Logger, every time.Duration, maxKeys, flushAt int,
	merge func(older, newer C) C, compare func(a, b K) int, write func(context.Context, []K, []C) error) *counter[K, C] {
	return &counter[K, C]{what: what, log: log, every: every, maxKeys: maxKeys, flushAt: flushAt, full: make(chan struct{}, 1),
		merge: merge, compare: compare, write: write, pending: map[K]C{}}
}

// add counts n for key.
func (k *counter[K, C]) add(key K, n C) {
	k.mu.Lock()
	c, known := k.pending[key]
	if !known && len(k.pending) >= k.maxKeys {
		k.dropped++
		k.mu.Unlock()
		return
	}
	if known {
		n = k.merge(c, n)
	}
	k.pending[key] = n
	size := len(k.pending)
	k.mu.Unlock()
	if size >= k.flushAt {
		select {
		case k.full <- struct{}{}:
		default:
		}
	}
}

// flush writes the counts held so far. Counts that cannot be written (the database away) are kept
// for the next flush, within the bound.
func (k *counter[K, C]) flush(ctx context.Context) error {
	k.mu.Lock()
	batch, dropped := k.pending, k.dropped
	k.pending, k.dropped = map[K]C{}, 0
	k.mu.Unlock()
	if dropped > 0 {
		k.log.Warn(k.what+" dropped: too many different keys between two flushes", "dropped", dropped)
	}
	if len(batch) == 0 {
		return nil
	}
	keys := make([]K, 0, len(batch))
	for key := range batch {
		keys = append(keys, key)
	}
	slices.SortFunc(keys, k.compare)
	counts := make([]C, len(keys))
	for i, key := range keys {
		counts[i] = batch[key]
	}
	if err := k.write(ctx, keys, counts); err != nil {
		k.putBack(batch)
		return fmt.Errorf("add %s: %w", k.what, err)
	}
	return nil
}

// putBack merges counts a flush could not write into those held since.
func (k *counter[K, C]) putBack(batch map[K]C) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for key, c := range batch {
		now, known := k.pending[key]
		switch {
		case known:
			k.pending[key] = k.merge(c, now)
		case len(k.pending) >= k.maxKeys:
			k.dropped++
		default:
			k.pending[key] = c
		}
	}
}

// run flushes every interval, and at once when many keys wait, until ctx ends; then it flushes
// what is left.
func (k *counter[K, C]) run(ctx context.Context) error {
	t := time.NewTicker(k.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			return k.flush(final)
		case <-t.C:
		case <-k.full:
		}
		if err := k.flush(ctx); err != nil && ctx.Err() == nil {
			k.log.Warn(k.what+" not written yet", "err", err)
		}
	}
}
