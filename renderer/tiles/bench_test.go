package tiles

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/internal/benchdata"
	"github.com/pressroom/pressroom/renderer/pngenc"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// BenchmarkPrintFile13500 opens a 13500x16200 all-over-print file as a reviewer does: decode the PNG,
// build the pyramid, encode every tile. It reports the time to the first tile (what the reviewer waits
// for before seeing the whole file) and the tile throughput.
//
//	go test -run '^$' -bench PrintFile13500 -benchtime 2x ./renderer/tiles
func BenchmarkPrintFile13500(b *testing.B) {
	if !webpenc.Available {
		b.Skip("built without cgo: no WebP encoder")
	}
	var file bytes.Buffer
	if err := pngenc.Encode(&file, benchdata.Artwork(13500, 16200), pngenc.Options{DPI: 300, Level: 1}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var first, total time.Duration
	tiles := 0
	for b.Loop() {
		start := time.Now()
		img, _, err := imagelimit.Decode(bytes.NewReader(file.Bytes()), imagelimit.Config{})
		if err != nil {
			b.Fatal(err)
		}
		var once sync.Once
		m, err := Generate(context.Background(), img, Options{}, func(Tile) error {
			once.Do(func() { first += time.Since(start) })
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
		tiles += m.TileCount()
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms-to-first-tile")
	b.ReportMetric(float64(tiles)/total.Seconds(), "tiles/s")
}
