package pngenc_test

import (
	"bytes"
	"image"
	"image/png"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/renderer/pngenc"
)

// Print-size test images, built once per test binary.
var (
	benchPhoto = sync.OnceValue(func() *image.NRGBA { return photoLike(4500, 5400) })
	benchFlat  = sync.OnceValue(func() *image.NRGBA { return flatArtwork(4500, 5400) })
)

// BenchmarkEncode compares Encode with image/png at its default compression
// on 4500x5400 images, reporting the output size as "bytes". image/png is
// slow (seconds per op); run with -benchtime 1x or 2x.
func BenchmarkEncode(b *testing.B) {
	images := []struct {
		name string
		img  func() *image.NRGBA
	}{
		{"photo", benchPhoto},
		{"flat", benchFlat},
	}
	for _, im := range images {
		b.Run(im.name+"/pngenc", func(b *testing.B) {
			img := im.img()
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := pngenc.Encode(&buf, img, pngenc.Options{DPI: 300}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
		b.Run(im.name+"/pngenc-rgba", func(b *testing.B) {
			src := im.img()
			img := &image.RGBA{Pix: src.Pix, Stride: src.Stride, Rect: src.Rect} // same bytes read as premultiplied
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := pngenc.Encode(&buf, img, pngenc.Options{DPI: 300}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
		b.Run(im.name+"/image-png", func(b *testing.B) {
			img := im.img()
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := png.Encode(&buf, img); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}
