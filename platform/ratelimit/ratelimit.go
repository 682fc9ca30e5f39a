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
	if limit == 0 {
		return 0, nil
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
		return 0, fmt.Errorf("count %s: %w", key, err)
	}
	if count.Val() <= limit {
		return 0, nil
	}
	if err := w.rdb.DecrBy(ctx, key, n).Err(); err != nil {
		return 0, fmt.Errorf("give back %s: %w", key, err)
	}
	return max(ttl.Val(), time.Second), nil
}
