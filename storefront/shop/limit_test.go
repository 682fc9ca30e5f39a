package shop

import (
	"testing"
	"time"
)

// TestLimiter: a client gets its burst, then waits; another client is not held up; a refused post
// costs nothing, so the client is back after the refill time.
func TestLimiter(t *testing.T) {
	l := newLimiter(3)
	now := time.Unix(1_800_000_000, 0)
	for i := range 3 {
		if ok, _ := l.allow("10.0.0.1", now); !ok {
			t.Fatalf("post %d refused within the burst", i+1)
		}
	}
	ok, wait := l.allow("10.0.0.1", now)
	if ok || wait <= 0 || wait > 20*time.Second {
		t.Fatalf("fourth post: ok %v, wait %s; want refused for about 20s", ok, wait)
	}
	if ok, _ := l.allow("10.0.0.2", now); !ok {
		t.Error("another address is held up")
	}
	for range 10 {
		l.allow("10.0.0.1", now) // refused posts do not dig the hole deeper
	}
	if ok, _ := l.allow("10.0.0.1", now.Add(20*time.Second)); !ok {
		t.Error("still refused after the refill time")
	}
	if ok, _ := newLimiter(0).allow("x", now); !ok {
		t.Error("0 must turn the cap off")
	}
}
