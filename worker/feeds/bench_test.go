package feeds

import (
	"context"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pressroom/pressroom/worker/tasks"
)

// BenchmarkBuildFeed builds a Google feed and a Facebook feed of a store of 1,000 and of 10,000
// products (10 items each: 2 colours × 5 sizes) against real Postgres into the local blob store. It
// reports the items and bytes written per build and the Go heap in use at its highest during the
// builds (sampled every 5 ms): flat memory means the 10,000-product builds hold about what the
// 1,000-product ones hold. Target (docs/social-feeds.md): 10,000 products in at most 10 s.
//
//	go test -run XXX -bench BenchmarkBuildFeed -benchtime 3x ./worker/feeds/
func BenchmarkBuildFeed(b *testing.B) {
	for _, products := range []int{1_000, 10_000} {
		s := newShop(b)
		s.campaigns(b, "Bench", products)
		s.db.MustExec(`ANALYZE`) // as autovacuum would after such a load: the planner knows the sizes
		for _, format := range tasks.FeedFormats {
			b.Run(format+"/products="+strconv.Itoa(products), func(b *testing.B) {
				id := s.feed(b, format)
				builder := s.builder(b)
				ctx := context.Background()
				runtime.GC()
				var base runtime.MemStats
				runtime.ReadMemStats(&base)
				var peak atomic.Uint64
				stop := make(chan struct{})
				var wg sync.WaitGroup
				wg.Go(func() {
					t := time.NewTicker(5 * time.Millisecond)
					defer t.Stop()
					var m runtime.MemStats
					for {
						select {
						case <-stop:
							return
						case <-t.C:
							runtime.ReadMemStats(&m)
							if m.HeapInuse > peak.Load() {
								peak.Store(m.HeapInuse)
							}
						}
					}
				})
				b.ReportAllocs()
				b.ResetTimer()
				var out Built
				for i := 0; i < b.N; i++ {
					s.db.MustExec(`UPDATE social_feeds SET wanted_seq = wanted_seq + 1 WHERE id = $1`, id)
					var err error
					if out, err = builder.Build(ctx, id, int64(i+2)); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				close(stop)
				wg.Wait()
				if out.Items != products*10 {
					b.Fatalf("%d items, want %d", out.Items, products*10)
				}
				b.ReportMetric(float64(out.Items), "items/op")
				b.ReportMetric(float64(out.Bytes)/(1<<20), "MB-written/op")
				b.ReportMetric(float64(peak.Load()-min(peak.Load(), base.HeapInuse))/(1<<20), "peak-heap-MB")
			})
		}
	}
}
