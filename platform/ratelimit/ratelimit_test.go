package ratelimit

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/platform/testinfra"
)

func TestWindowCountsPerKey(t *testing.T) {
	addr, db := testinfra.Redis(t)
	rdb := redis.NewClient(&redis.Options{Addr: addr, DB: db})
	t.Cleanup(func() { rdb.Close() })
	w := New(rdb, time.Minute)
	ctx := context.Background()
	take := func(key string, n, limit int64) time.Duration {
		t.Helper()
		wait, err := w.Take(ctx, key, n, limit)
		if err != nil {
			t.Fatal(err)
		}
		return wait
	}
	for i := range 2 {
		if wait := take("a", 1, 2); wait != 0 {
			t.Fatalf("take %d within the limit waits %s", i+1, wait)
		}
	}
	if wait := take("a", 1, 2); wait <= 0 || wait > time.Minute {
		t.Fatalf("take over the limit waits %s, want up to the window", wait)
	}
	if wait := take("b", 1, 2); wait != 0 {
		t.Fatalf("another key waits %s", wait)
	}
	if wait := take("c", 1, 0); wait != 0 {
		t.Fatalf("a limit of 0 waits %s", wait)
	}
	if n, _ := rdb.Exists(ctx, "c").Result(); n != 0 {
		t.Fatal("a limit of 0 counted in Redis")
	}
	// The window's expiry is set once, by the first take: a later take does not extend it.
	if ttl := rdb.PTTL(ctx, "a").Val(); ttl <= 0 || ttl > time.Minute {
		t.Fatalf("window expiry %s", ttl)
	}
	if err := rdb.PExpire(ctx, "a", 30*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	take("a", 1, 2)
	if ttl := rdb.PTTL(ctx, "a").Val(); ttl <= 0 || ttl > 30*time.Second {
		t.Fatalf("a later take extended the window: expiry %s, want at most 30s", ttl)
	}
}

// Amounts: a refused take is given back, so a large refused reservation leaves room for a small one.
func TestWindowAmounts(t *testing.T) {
	addr, db := testinfra.Redis(t)
	rdb := redis.NewClient(&redis.Options{Addr: addr, DB: db})
	t.Cleanup(func() { rdb.Close() })
	w := New(rdb, time.Hour)
	ctx := context.Background()
	steps := []struct {
		n       int64
		refused bool
	}{{60, false}, {50, true}, {40, false}, {1, true}}
	for i, s := range steps {
		wait, err := w.Take(ctx, "bytes", s.n, 100)
		if err != nil {
			t.Fatal(err)
		}
		if (wait > 0) != s.refused {
			t.Fatalf("step %d: take %d waits %s, refused want %v", i, s.n, wait, s.refused)
		}
	}
	if n, _ := rdb.Get(ctx, "bytes").Int64(); n != 100 {
		t.Fatalf("count %d, want 100 (refused takes given back)", n)
	}
}

// Use reports what remains: the count left after each take and the window's end, and a refusal
// leaves the remaining count where it was.
func TestWindowUse(t *testing.T) {
	addr, db := testinfra.Redis(t)
	rdb := redis.NewClient(&redis.Options{Addr: addr, DB: db})
	t.Cleanup(func() { rdb.Close() })
	w := New(rdb, time.Minute)
	ctx := context.Background()
	for i, want := range []int64{2, 1, 0, 0} {
		u, err := w.Use(ctx, "k", 1, 3)
		if err != nil {
			t.Fatal(err)
		}
		if u.Remaining != want || u.Reset <= 0 || u.Reset > time.Minute || (u.Wait > 0) != (i == 3) {
			t.Fatalf("take %d: %+v, want %d remaining, refused %v", i+1, u, want, i == 3)
		}
	}
}
