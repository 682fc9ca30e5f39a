package mockup

import (
	"context"
	"errors"
	"image"
	"os"
	"sync"
	"testing"
)

// TestCacheConcurrentRenders renders one template from many goroutines (run it with -race): the template
// is read once, every render gets the same pixels, and nothing races on the shared prepared template.
func TestCacheConcurrentRenders(t *testing.T) {
	tpl, l := synthetic(t, 32, "[[8, 8], [24, 8], [24, 24], [8, 24]]", `, "tint": "tint.png", "mask": "mask.png", "shadow": "shadow.png"`,
		map[string]image.Image{"tint.png": solidGray(32, 32, 255), "mask.png": leftGray(32, 32, 16, 255, 128), "shadow.png": solidGray(32, 32, 200)})
	r := newRenderer(t, l)
	const n = 16
	outs := make([]*image.RGBA, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = r.Render(context.Background(), solidRGBA(8, 8, blue), tpl, Options{Size: 32, Color: "#c81e3c", Concurrency: 2})
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if string(outs[i].Pix) != string(outs[0].Pix) {
			t.Fatalf("render %d differs from render 0", i)
		}
	}
	if got := l.opens.Load(); got != 4 {
		t.Errorf("%d file opens for %d renders, want 4 (base, tint, mask, shadow once)", got, n)
	}
	if entries, _ := r.cache.stats(); entries != 1 {
		t.Errorf("%d cache entries, want 1", entries)
	}
}

func TestCacheKeysOnTemplateAndSize(t *testing.T) {
	tpl, l := synthetic(t, 64, "[[8, 8], [56, 8], [56, 56], [8, 56]]", "", nil)
	tpl.Sizes = []int{64, 32, 16}
	r := newRenderer(t, l)
	render := func(tpl *Template, size int) {
		t.Helper()
		if _, err := r.Render(context.Background(), solidRGBA(4, 4, blue), tpl, Options{Size: size}); err != nil {
			t.Fatal(err)
		}
	}
	render(tpl, 64)
	render(tpl, 64)
	if got := l.opens.Load(); got != 1 {
		t.Fatalf("%d opens after two renders at one size, want 1", got)
	}
	render(tpl, 32)
	if got := l.opens.Load(); got != 2 {
		t.Fatalf("%d opens after a second size, want 2", got)
	}
	// the same id with edited JSON is another template
	edited, _ := synthetic(t, 64, "[[8, 8], [56, 8], [56, 56], [8, 56]]", `, "color": "#eee"`, nil)
	edited.Sizes = []int{64}
	render(edited, 64)
	if got := l.opens.Load(); got != 3 {
		t.Fatalf("%d opens after an edited template, want 3", got)
	}
	// and so is a template changed in code
	moved := *edited
	moved.Quad[0].X++
	render(&moved, 64)
	if got := l.opens.Load(); got != 4 {
		t.Fatalf("%d opens after a template changed in code, want 4", got)
	}
	if entries, _ := r.cache.stats(); entries != 4 {
		t.Errorf("%d entries, want 4", entries)
	}
}

func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := newCache(100)
	prep := func(n int64) func() (*prepared, error) {
		return func() (*prepared, error) { return &prepared{bytes: n}, nil }
	}
	ctx := context.Background()
	a, b, d := cacheKey{id: "a"}, cacheKey{id: "b"}, cacheKey{id: "d"}
	mustGet := func(k cacheKey, n int64) {
		if _, err := c.get(ctx, k, prep(n)); err != nil {
			t.Fatal(err)
		}
	}
	mustGet(a, 40)
	mustGet(b, 40)
	mustGet(a, 40) // a is now the most recent
	mustGet(d, 40) // evicts b
	c.mu.Lock()
	_, hasA := c.entries[a]
	_, hasB := c.entries[b]
	c.mu.Unlock()
	if !hasA || hasB {
		t.Errorf("after touching a and adding d: a kept %v, b kept %v; want a kept, b evicted", hasA, hasB)
	}
	mustGet(cacheKey{id: "huge"}, 500) // larger than the budget: served, not kept
	if n, used := c.stats(); n != 2 || used != 80 {
		t.Errorf("%d entries, %d bytes; want 2, 80", n, used)
	}
}

func TestCacheDoesNotKeepFailures(t *testing.T) {
	tpl, l := synthetic(t, 16, "[[4, 4], [12, 4], [12, 12], [4, 12]]", `, "mask": "mask.png"`, nil)
	r := newRenderer(t, l)
	if _, err := r.Render(context.Background(), solidRGBA(4, 4, blue), tpl, Options{Size: 16}); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want a missing mask", err)
	}
	l.files["mask.png"] = pngOf(t, solidGray(16, 16, 255))
	if _, err := r.Render(context.Background(), solidRGBA(4, 4, blue), tpl, Options{Size: 16}); err != nil {
		t.Errorf("after the mask appeared: %v", err)
	}
}
