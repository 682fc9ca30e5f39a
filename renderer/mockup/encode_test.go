package mockup

import (
	"bytes"
	"image"
	"image/color"
	"testing"

	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/renderer/webpenc"
)

// A half-transparent pixel of a rendered (premultiplied) mockup keeps its colour as WebP: webpenc
// un-premultiplies *image.RGBA itself, so doing it here too would brighten the colour to about twice.
func TestEncodeWebPKeepsHalfTransparentColour(t *testing.T) {
	if !webpenc.Available {
		t.Skip("a build without cgo has no WebP encoder")
	}
	want := color.NRGBA{100, 60, 40, 128}
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	for y := range 32 {
		for x := range 32 {
			img.Set(x, y, want)
		}
	}
	var buf bytes.Buffer
	if err := Encode(&buf, img, FormatWebP); err != nil {
		t.Fatal(err)
	}
	got, err := webp.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// lossy WebP subsamples chroma: allow a little drift, far less than the doubling
	c := color.NRGBAModel.Convert(got.At(16, 16)).(color.NRGBA)
	if !near(color.RGBA(c), color.RGBA(want), 16) {
		t.Errorf("decoded %v, want about %v", c, want)
	}
}
