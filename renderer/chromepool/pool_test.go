package chromepool

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/pressroom/pressroom/platform/testinfra"
)

// TestRenderShowsTheDesign renders the design on each demo model in real Chromium and checks the
// mockup's size, that it is not blank and that both of the design's colours show.
func TestRenderShowsTheDesign(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Browsers = 1
	p, tmp := startPool(t, cfg, testinfra.UI(t), nil)
	seen := map[int]bool{}
	design := designPNG(t)
	for _, model := range []string{"tshirt", "mug"} {
		t.Run(model, func(t *testing.T) {
			out, err := p.Render(context.Background(), Job{Model: model, Design: design})
			if err != nil {
				t.Fatal(err)
			}
			for _, pid := range p.Stats().PIDs {
				seen[pid] = true
			}
			img, err := png.Decode(bytes.NewReader(out.PNG))
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Bounds().Size(); got != image.Pt(1500, 1875) {
				t.Fatalf("mockup is %v; want 1500x1875", got)
			}
			if blank(out.Image) {
				t.Fatal("mockup is blank")
			}
			red, blue := colourCount(img, designRed), colourCount(img, designBlue)
			if red < 2000 || blue < 2000 {
				t.Errorf("design colours in the mockup: %d red and %d blue sampled pixels; want at least 2000 each", red, blue)
			}
			if dir := os.Getenv("PRESSROOM_TEST_DUMP"); dir != "" {
				os.WriteFile(filepath.Join(dir, "mockup3d-"+model+".png"), out.PNG, 0o644)
			}
		})
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	assertNothingLeft(t, seen, tmp)
}

// TestBrowserKilledMidRender SIGKILLs the browser while its page is fetching the design: the render is
// retried on a fresh browser and succeeds, and nothing of the dead browser is left.
func TestBrowserKilledMidRender(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Browsers = 1
	var pool atomic.Pointer[Pool]
	var killed atomic.Int64
	p, tmp := startPool(t, cfg, testinfra.UI(t), func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, filesPrefix) && killed.Load() == 0 {
				pid := pool.Load().Stats().PIDs[0]
				killed.Store(int64(pid))
				if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
					t.Errorf("kill browser %d: %v", pid, err)
				}
			}
			next.ServeHTTP(w, r)
		})
	})
	pool.Store(p)
	out, err := p.Render(context.Background(), Job{Model: "tshirt", Design: designPNG(t)})
	if err != nil {
		t.Fatalf("render after the kill: %v", err)
	}
	if killed.Load() == 0 {
		t.Fatal("the browser was never killed: the page did not load the design")
	}
	if blank(out.Image) {
		t.Fatal("mockup is blank")
	}
	st := p.Stats()
	if st.Started != 2 || st.Crashed != 1 || st.Retried != 1 || st.Rendered != 1 {
		t.Errorf("stats %+v; want 2 started, 1 crashed, 1 retried, 1 rendered", st)
	}
	seen := map[int]bool{int(killed.Load()): true}
	for _, pid := range st.PIDs {
		seen[pid] = true
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	assertNothingLeft(t, seen, tmp)
}

// TestRecycle runs more renders than the recycle limit on two browsers: each browser is replaced after
// RecycleAfter renders, every render succeeds, and no process or profile remains after Close.
func TestRecycle(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Browsers = 2
	cfg.RecycleAfter = 2
	p, tmp := startPool(t, cfg, testinfra.UI(t), nil)
	design := designPNG(t)
	seen := map[int]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	const renders = 6
	for i := range renders {
		wg.Go(func() {
			model := []string{"tshirt", "mug"}[i%2]
			if _, err := p.Render(context.Background(), Job{Model: model, Design: design}); err != nil {
				t.Errorf("render %d: %v", i, err)
			}
			mu.Lock()
			for _, pid := range p.Stats().PIDs {
				seen[pid] = true
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	st := p.Stats()
	// However the renders spread over the browsers, each one that served RecycleAfter was replaced: with
	// n_i renders on browser slot i, sum(n_i / RecycleAfter) >= (renders - Browsers*(RecycleAfter-1)) /
	// RecycleAfter, here 2; and every browser started is either recycled or still running.
	minRecycled := (renders - cfg.Browsers*(cfg.RecycleAfter-1)) / cfg.RecycleAfter
	if st.Rendered != renders || st.Crashed != 0 || st.Recycled < minRecycled || st.Started != st.Recycled+len(st.PIDs) {
		t.Errorf("stats %+v; want %d rendered, none crashed, at least %d recycled, started = recycled + running",
			st, renders, minRecycled)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	assertNothingLeft(t, seen, tmp)
}

// TestBusy fills one browser and a queue of one: the third render at once gets ErrBusy.
func TestBusy(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Browsers = 1
	cfg.QueueSize = 1
	release := make(chan struct{})
	var first sync.Once
	started := make(chan struct{})
	p, _ := startPool(t, cfg, testinfra.UI(t), func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, filesPrefix) {
				// Hold the first render's design until the test has queued and refused the others.
				first.Do(func() { close(started); <-release })
			}
			next.ServeHTTP(w, r)
		})
	})
	design := designPNG(t)
	errs := make(chan error, 2)
	go func() { _, err := p.Render(context.Background(), Job{Model: "mug", Design: design}); errs <- err }()
	<-started
	go func() { _, err := p.Render(context.Background(), Job{Model: "mug", Design: design}); errs <- err }()
	// The second waits in the queue; poll until it is there, then a third must be refused.
	for len(p.queue) == 0 {
		runtime.Gosched()
	}
	if _, err := p.Render(context.Background(), Job{Model: "mug", Design: design}); !errors.Is(err, ErrBusy) {
		t.Errorf("third render: %v; want ErrBusy", err)
	}
	close(release)
	for range 2 {
		if err := <-errs; err != nil {
			t.Errorf("queued render: %v", err)
		}
	}
}

// TestReusedTab renders two designs in one tab (RendersPerTab 2): the second mockup shows the second
// design, not the first one left on the canvas.
func TestReusedTab(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Browsers = 1
	cfg.RendersPerTab = 2
	p, _ := startPool(t, cfg, testinfra.UI(t), nil)
	first, second := designPNG(t), solidPNG(t, designBlue)
	for i, design := range [][]byte{first, second} {
		out, err := p.Render(context.Background(), Job{Model: "mug", Design: design})
		if err != nil {
			t.Fatalf("render %d: %v", i, err)
		}
		img, err := png.Decode(bytes.NewReader(out.PNG))
		if err != nil {
			t.Fatal(err)
		}
		red, blue := colourCount(img, designRed), colourCount(img, designBlue)
		if i == 1 && (red > 0 || blue < 2000) {
			t.Errorf("second render: %d red and %d blue sampled pixels; want no red (the first design) and at least 2000 blue", red, blue)
		}
	}
	if st := p.Stats(); st.Started != 1 || st.Rendered != 2 {
		t.Errorf("stats %+v; want one browser for both renders", st)
	}
}
