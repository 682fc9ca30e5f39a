package livecache

import (
	"testing"
	"time"
)

func TestCacheServesOnlyWhileFollowedAndDropsWhatIsNotified(t *testing.T) {
	now := time.Now()
	later := now.Add(time.Minute)
	c := New(10, func(payload string, k string, _ int) bool { return payload == k })
	get := func(k string) (int, bool) {
		v, _, ok := c.Get(k, now)
		return v, ok
	}

	// Not followed yet: nothing is kept.
	_, t0, _ := c.Get("a", now)
	c.Put(t0, "a", 1, later)
	if _, ok := get("a"); ok {
		t.Fatal("served before listening")
	}

	c.Listening()
	_, t1, _ := c.Get("a", now)
	c.Put(t1, "a", 1, later)
	if v, ok := get("a"); !ok || v != 1 {
		t.Fatalf("after Put while listening: %d %v", v, ok)
	}
	if _, _, ok := c.Get("a", later); ok {
		t.Fatal("served past its time")
	}

	// A value read while a notification arrived is not kept, whatever it concerned.
	_, t2, _ := c.Get("b", now)
	c.Changed("z")
	c.Put(t2, "b", 2, later)
	if _, ok := get("b"); ok {
		t.Fatal("kept a value read across a notification")
	}

	// A notification drops what it concerns, and only that.
	_, t3, _ := c.Get("b", now)
	c.Put(t3, "b", 2, later)
	c.Changed("a")
	if _, ok := get("a"); ok {
		t.Fatal("a served after its notification")
	}
	if _, ok := get("b"); !ok {
		t.Fatal("b dropped by a notification about a")
	}

	// Lost: nothing is served, nor kept, until listening again, which starts empty.
	_, t4, _ := c.Get("c", now)
	c.Lost()
	c.Put(t4, "c", 3, later)
	if _, ok := get("b"); ok {
		t.Fatal("served while the channel is lost")
	}
	c.Listening()
	if _, ok := get("b"); ok {
		t.Fatal("kept an entry across a lost channel")
	}
}

func TestCacheEmptiesItselfWhenFull(t *testing.T) {
	now := time.Now()
	c := New(2, func(string, int, int) bool { return false })
	c.Listening()
	for k := range 3 {
		_, tk, _ := c.Get(k, now)
		c.Put(tk, k, k, now.Add(time.Minute))
	}
	if _, _, ok := c.Get(0, now); ok {
		t.Fatal("kept more than max entries")
	}
	if v, _, ok := c.Get(2, now); !ok || v != 2 {
		t.Fatalf("newest entry: %d %v", v, ok)
	}
}
