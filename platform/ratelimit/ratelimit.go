package ratelimit

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Window counts amounts per key in fixed windows of one length: a key's first take in a window
// starts the window's expiry, and later takes never extend it.
type Window struct {
	rdb    *redis.Client
	length time.Duration
}

// New counts in rdb in windows of length.
func New(rdb *redis.Client, length time.Duration) *Window {
	return &Window{rdb: rdb, length: length}
}

// Take adds n to key's count and returns how long until key's window ends when the count would
// pass limit, giving n back (a refused take spends nothing); 0 lets the caller through, as does a
// limit of 0 (no limit, nothing counted).
func (w *Window) Take(ctx context.Context, key string, n, limit int64) (time.Duration, error) {
	u, err := w.Use(ctx, key, n, limit)
	return u.Wait, err
}

// Usage is a key's window after a take.
type Usage struct {
	// Wait is how long until the window ends when the take was refused, else 0.
	Wait time.Duration
	// Remaining is what is left of the limit in the window after the take.
	Remaining int64
	// Reset is how long until the window ends.
	Reset time.Duration
}

// Use is Take that also reports what remains of the window, for callers that publish it (the
// RateLimit-* headers). A limit of 0 counts nothing and answers the zero Usage.
func (w *Window) Use(ctx context.Context, key string, n, limit int64) (Usage, error) {
	if limit == 0 {
		return Usage{}, nil
	}
	var count *redis.IntCmd
	var ttl *redis.DurationCmd
	_, err := w.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		count = p.IncrBy(ctx, key, n)
		p.ExpireNX(ctx, key, w.length)
		ttl = p.PTTL(ctx, key)
		return nil
	})
	if err != nil {
		return Usage{}, fmt.Errorf("count %s: %w", key, err)
	}
	reset := max(ttl.Val(), time.Millisecond)
	if count.Val() <= limit {
		return Usage{Remaining: limit - count.Val(), Reset: reset}, nil
	}
	if err := w.rdb.DecrBy(ctx, key, n).Err(); err != nil {
		return Usage{}, fmt.Errorf("give back %s: %w", key, err)
	}
	return Usage{Wait: max(reset, time.Second), Remaining: max(limit-(count.Val()-n), 0), Reset: reset}, nil
}
