package mockup_test

import (
	"context"
	"image"
	"image/draw"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/pressroom/pressroom/renderer/internal/benchdata"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/mockup/demo"
)

// BenchmarkRender measures one 2000 px mockup (and a 500 px render) with the template cached: the
// base copied, tinted, the 1000x1200 print (the export size of a 4500x5400 design) warped, displaced,
// shaded and masked onto it; a base mockup (a 1500x1800 base source at 500 px, WebP); then the PNG and
// WebP encodings of the 2000 px mockup and the preview render:mockup makes from it (scaled, WebP).
// The target is 120 ms per 2000 px mockup on one core:
//
//	go test ./renderer/mockup -run '^$' -bench Render -cpu 1
//
// Drawing the 2000 px demo templates takes a few seconds before the first measurement.
func BenchmarkRender(b *testing.B) {
	// the print as renderer/raster hands it over: premultiplied RGBA
	print := image.NewRGBA(image.Rect(0, 0, 1000, 1200))
	draw.Draw(print, print.Rect, benchdata.Artwork(1000, 1200), image.Point{}, draw.Src)
	base := image.NewRGBA(image.Rect(0, 0, 1500, 1800))
	draw.Draw(base, base.Rect, benchdata.Artwork(1500, 1800), image.Point{}, draw.Src)
	for _, id := range []string{"tshirt-front", "mug-wrap"} {
		set, err := demo.Draw(id, demo.DefaultSide)
		if err != nil {
			b.Fatal(err)
		}
		r, err := mockup.New(mockup.DefaultConfig(), set.Loader())
		if err != nil {
			b.Fatal(err)
		}
		for _, size := range []int{mockup.DefaultSize, mockup.PreviewSize} {
			opt := mockup.Options{Color: "#1f3a68", Size: size}
			if _, err := r.Render(context.Background(), print, set.Template, opt); err != nil { // prepare the template
				b.Fatal(err)
			}
			b.Run(id+"/"+itoa(size), func(b *testing.B) {
				b.ReportAllocs()
				cpu := cpuTime()
				for b.Loop() {
					if _, err := r.Render(context.Background(), print, set.Template, opt); err != nil {
						b.Fatal(err)
					}
				}
				reportCPU(b, cpu)
			})
		}
		// A design with custom objects adds a base mockup to each of its flat mockups: its base source
		// (the design without them, 1500x1800 for a 4500x5400 design) placed at 500 px and encoded as
		// WebP.
		b.Run(id+"/base-webp/500", func(b *testing.B) {
			opt := mockup.Options{Color: "#1f3a68", Size: mockup.PreviewSize}
			cpu := cpuTime()
			for b.Loop() {
				out, err := r.Render(context.Background(), base, set.Template, opt)
				if err != nil {
					b.Fatal(err)
				}
				if err := mockup.EncodePreview(io.Discard, out); err != nil {
					b.Skip(err) // a build without cgo
				}
			}
			reportCPU(b, cpu)
		})
		if id != "tshirt-front" {
			continue
		}
		out, err := r.Render(context.Background(), print, set.Template, mockup.Options{Color: "#1f3a68"})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range []mockup.Format{mockup.FormatPNG, mockup.FormatWebP} {
			b.Run("encode-"+string(f)+"/2000", func(b *testing.B) {
				cpu := cpuTime()
				for b.Loop() {
					if err := mockup.Encode(io.Discard, out, f); err != nil {
						b.Skip(err) // WebP in a build without cgo
					}
				}
				reportCPU(b, cpu)
			})
		}
		// The preview's extra cost in render:mockup: the 2000 px mockup scaled to 500 px and encoded
		// as WebP, instead of a second render.
		b.Run("preview-webp/500", func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				if err := mockup.EncodePreview(io.Discard, out); err != nil {
					b.Skip(err) // a build without cgo
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// cpuTime is the process's user and system CPU time so far. On a shared machine the wall time of a
// benchmark (ns/op) grows with the load; the CPU time it spent (cpu-ms/op, GC included) does not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

func itoa(n int) string {
	if n == mockup.DefaultSize {
		return "2000"
	}
	return "500"
}
