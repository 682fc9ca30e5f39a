package chromepool

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/pressroom/pressroom/platform/testinfra"
)

// BenchmarkMockup3D compares, in one run, renders through a warm pool (its tab reused, or a fresh tab per
// render) with starting a browser for every render (a pool that recycles after each render: start,
// render, kill, remove the profile). It reports each side's p50 latency; the target is a warm throughput
// at least 5x the other's (DESIGN.md), so compare their ns/op:
//
//	go test -run '^$' -bench Mockup3D -benchtime 8x ./renderer/chromepool/
func BenchmarkMockup3D(b *testing.B) {
	for _, tc := range []struct {
		name          string
		recycle, tabs int
	}{
		{"warm-pool-reused-tab", 1 << 30, 1 << 30},
		{"warm-pool-tab-per-render", 1 << 30, 1},
		{"browser-per-render", 1, 1},
	} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Browsers = 1
			cfg.RecycleAfter = tc.recycle
			cfg.RendersPerTab = tc.tabs
			p, _ := startPool(b, cfg, testinfra.UI(b), nil)
			defer p.Close()
			job := Job{Model: "tshirt", Design: designPNG(b)}
			if tc.recycle > 1 {
				// Warm: the browser is running and has the page's assets cached.
				if _, err := p.Render(context.Background(), job); err != nil {
					b.Fatal(err)
				}
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for b.Loop() {
				start := time.Now()
				if _, err := p.Render(context.Background(), job); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
		})
	}
}
