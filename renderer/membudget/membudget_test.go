package membudget

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBudgetBoundsConcurrentBytes runs 16 jobs of assorted sizes at once against a budget of 100
// bytes: the bytes held at any moment never exceed it, every job runs, and a job bigger than the
// budget runs alone.
func TestBudgetBoundsConcurrentBytes(t *testing.T) {
	b, err := New(100)
	if err != nil {
		t.Fatal(err)
	}
	freed := make(chan struct{}, 16)
	b.OnIdle(200, func() { freed <- struct{}{} })
	ctx := WithBudget(context.Background(), b)
	var held, peak, ran atomic.Int64
	var wg sync.WaitGroup
	sizes := []int64{60, 30, 50, 10, 90, 40, 70, 20, 250, 35, 65, 15, 80, 25, 45, 55}
	for _, n := range sizes {
		wg.Go(func() {
			release, err := Acquire(ctx, n)
			if err != nil {
				t.Error(err)
				return
			}
			now := held.Add(min(n, 100))
			for p := peak.Load(); now > p && !peak.CompareAndSwap(p, now); p = peak.Load() {
			}
			if n > 100 && now != 100 {
				t.Errorf("a job of %d bytes ran with %d bytes held; want it alone", n, now)
			}
			time.Sleep(time.Millisecond) // hold the bytes a while, so that jobs overlap
			held.Add(-min(n, 100))
			ran.Add(1)
			release()
		})
	}
	wg.Wait()
	if peak.Load() > 100 {
		t.Errorf("%d bytes held at once; want at most the budget, 100", peak.Load())
	}
	if peak.Load() < 60 {
		t.Errorf("at most %d bytes held at once: the jobs never overlapped, so the test proves nothing", peak.Load())
	}
	// Idle at the end, after far more than 200 bytes: OnIdle's function ran, at least once and at
	// most once per 200 bytes acquired (the job of 250 counting as the budget's 100).
	var sum int64
	for _, n := range sizes {
		sum += min(n, 100)
	}
	// The function runs within the release that made the budget idle: every run is done by now.
	n := int64(len(freed))
	if n == 0 {
		t.Errorf("the budget went idle after %d bytes, but OnIdle's function never ran", sum)
	}
	if n > sum/200 {
		t.Errorf("OnIdle's function ran %d times for %d bytes; want at most one per 200", n, sum)
	}
	if ran.Load() != int64(len(sizes)) {
		t.Errorf("%d jobs ran; want %d", ran.Load(), len(sizes))
	}
}

// TestAcquireEndsWithItsContext: a job waiting for bytes gives up when its context ends, and a
// context without a budget costs nothing.
func TestAcquireEndsWithItsContext(t *testing.T) {
	b, err := New(10)
	if err != nil {
		t.Fatal(err)
	}
	release, err := b.Acquire(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	withBudget := WithBudget(context.Background(), b)
	ctx, cancel := context.WithCancel(withBudget)
	cancel()
	if _, err := Acquire(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("acquire on a full budget with an ended context: %v; want context.Canceled", err)
	}
	if release, err := Acquire(context.Background(), 1<<40); err != nil {
		t.Errorf("acquire without a budget: %v", err)
	} else {
		release()
	}
}

// TestOnIdleRunsOncePerThreshold: OnIdle's function runs when the last bytes held come back, only
// once at least the threshold was acquired since it last ran, never while bytes are still held,
// and before the bytes it followed can be acquired again.
func TestOnIdleRunsOncePerThreshold(t *testing.T) {
	b, err := New(100)
	if err != nil {
		t.Fatal(err)
	}
	ctx := WithBudget(context.Background(), b)
	runs := 0
	b.OnIdle(100, func() {
		runs++
		if b.sem.TryAcquire(b.total) {
			t.Error("the whole budget could be acquired while OnIdle's function ran")
			b.sem.Release(b.total)
		}
	})
	hold := func(n int64) func() {
		t.Helper()
		release, err := Acquire(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		return release
	}
	hold(60)()
	if runs != 0 {
		t.Fatalf("ran %d times after 60 bytes; want none below the threshold of 100", runs)
	}
	first, second := hold(30), hold(20)
	first()
	if runs != 0 {
		t.Fatalf("ran %d times while 20 bytes were still held; want none", runs)
	}
	second()
	if runs != 1 {
		t.Fatalf("ran %d times once idle after 110 bytes; want once", runs)
	}
	hold(99)()
	if runs != 1 {
		t.Fatalf("ran %d times after 99 bytes more; want still once (the count starts again)", runs)
	}
	hold(1)()
	if runs != 2 {
		t.Fatalf("ran %d times after 100 bytes more; want twice", runs)
	}
}
