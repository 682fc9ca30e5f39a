package pngdec_test

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/pressroom/pressroom/renderer/internal/benchdata"
	"github.com/pressroom/pressroom/renderer/pngdec"
)

// BenchmarkDecode compares Decode with image/png on the 4500x5400 reference
// artwork (RGBA).
func BenchmarkDecode(b *testing.B) {
	data := encoded(b, benchdata.Artwork(4500, 5400))
	b.Run("pngdec", func(b *testing.B) {
		b.SetBytes(4500 * 5400 * 4)
		for b.Loop() {
			if _, err := pngdec.Decode(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("image-png", func(b *testing.B) {
		b.SetBytes(4500 * 5400 * 4)
		for b.Loop() {
			if _, err := png.Decode(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
