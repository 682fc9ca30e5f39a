package imageproxy

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/platform/testinfra"
)

func TestRateLimitCountsPerKey(t *testing.T) {
	addr, db := testinfra.Redis(t)
	rdb := redis.NewClient(&redis.Options{Addr: addr, DB: db})
	t.Cleanup(func() { rdb.Close() })
	r := &rateLimit{rdb: rdb, window: time.Minute}
	ctx := context.Background()
	take := func(key string, limit int64) time.Duration {
		t.Helper()
		wait, err := r.take(ctx, key, limit)
		if err != nil {
			t.Fatal(err)
		}
		return wait
	}
	for i := range 2 {
		if wait := take(clientKey("192.0.2.1"), 2); wait != 0 {
			t.Fatalf("request %d within the limit waits %s", i+1, wait)
		}
	}
	if wait := take(clientKey("192.0.2.1"), 2); wait <= 0 || wait > time.Minute {
		t.Fatalf("request over the limit waits %s, want up to the window", wait)
	}
	if wait := take(clientKey("192.0.2.2"), 2); wait != 0 {
		t.Fatalf("another client waits %s", wait)
	}
	if wait := take(accountKey(7), 0); wait != 0 {
		t.Fatalf("a limit of 0 waits %s", wait)
	}
	if n, _ := rdb.Exists(ctx, accountKey(7)).Result(); n != 0 {
		t.Fatal("a limit of 0 counted in Redis")
	}
	// The window's expiry is set once, by the first request: a later request does not extend it.
	key := clientKey("192.0.2.1")
	if ttl := rdb.PTTL(ctx, key).Val(); ttl <= 0 || ttl > time.Minute {
		t.Fatalf("window expiry %s", ttl)
	}
	if err := rdb.PExpire(ctx, key, 30*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	take(key, 2)
	if ttl := rdb.PTTL(ctx, key).Val(); ttl <= 0 || ttl > 30*time.Second {
		t.Fatalf("a later request extended the window: expiry %s, want at most 30s", ttl)
	}
}
