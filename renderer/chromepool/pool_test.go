package chromepool

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
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
	"github.com/pressroom/pressroom/renderer/chromepool/models"
	"github.com/pressroom/pressroom/renderer/mockup"
)

// TestRenderShowsTheDesign renders the design on each demo model in real Chromium and checks the
// mockup's size, that it is not blank and that both of the design's colours show.
func TestRenderShowsTheDesign(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Browsers = 1
	p, tmp := startPool(t, cfg, testinfra.UI(t), nil)
	seen := map[int]bool{}
	design := designPNG(t)
	for _, model := range models.Names {
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
			if model == "poster" {
				// A framed poster hangs at eye level: seen from above it would be drawn as a trapezoid,
				// its design's top wider than its bottom.
				top, bottom := designWidths(img, 0.15), designWidths(img, 0.85)
				if math.Abs(float64(top-bottom)) > 0.01*float64(bottom) {
					t.Errorf("the poster's design is %d px wide near its top and %d px near its bottom; want the same within 1%%", top, bottom)
				}
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

// TestProductColour renders the design on the T-shirt in two product colours: the shirt around the print
// takes each colour (shaded by the scene's light, so every channel of its mean linear colour is the same
// fraction of the tint's, within 15%), while the print keeps the design's red and blue.
func TestProductColour(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Browsers = 1
	p, _ := startPool(t, cfg, testinfra.UI(t), nil)
	design := designPNG(t)
	for _, tint := range []string{"#c8a040", "#2a9d8f"} {
		t.Run(tint, func(t *testing.T) {
			out, err := p.Render(context.Background(), Job{Model: "tshirt", Design: design, Color: tint})
			if err != nil {
				t.Fatal(err)
			}
			if red, blue := colourCount(out.Image, designRed), colourCount(out.Image, designBlue); red < 2000 || blue < 2000 {
				t.Errorf("design colours: %d red and %d blue sampled pixels; want at least 2000 each", red, blue)
			}
			want, err := mockup.ParseColor(tint)
			if err != nil {
				t.Fatal(err)
			}
			mean, n := garmentMean(out.Image)
			if n < 50000 {
				t.Fatalf("%d garment pixels; want the shirt to fill a good part of the frame", n)
			}
			tintLinear := [3]float64{linear(want.R), linear(want.G), linear(want.B)}
			var ratios [3]float64
			for c := range 3 {
				ratios[c] = mean[c] / tintLinear[c]
			}
			t.Logf("%d garment pixels, mean over tint per channel (linear) %.2f", n, ratios)
			lo, hi := min(ratios[0], ratios[1], ratios[2]), max(ratios[0], ratios[1], ratios[2])
			if lo < 0.3 || hi > 1.2 || hi/lo > 1.15 {
				t.Errorf("garment mean (linear) %.3f over the tint's %.3f = %.2f; want one shade for all channels (within 15%%)", mean, tintLinear, ratios)
			}
			if dir := os.Getenv("PRESSROOM_TEST_DUMP"); dir != "" {
				os.WriteFile(filepath.Join(dir, "mockup3d-tshirt-"+tint[1:]+".png"), out.PNG, 0o644)
			}
		})
	}
}

// garmentMean is the mean linear colour of the pixels that are neither the background nor the test
// design's red or blue, and their count.
func garmentMean(img image.Image) (mean [3]float64, n int) {
	bg, _ := mockup.ParseColor("#f3f3f1") // ui/src/mockup3d BACKGROUND
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if c == bg || near(c, designRed) || near(c, designBlue) {
				continue
			}
			mean[0] += linear(c.R)
			mean[1] += linear(c.G)
			mean[2] += linear(c.B)
			n++
		}
	}
	for i := range mean {
		mean[i] /= float64(max(n, 1))
	}
	return mean, n
}

// linear is an sRGB channel as linear light, 0..1.
func linear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}
