package raster

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"testing"

	"github.com/pressroom/pressroom/renderer/design"
)

// memLoader serves sources from memory, counting opens.
type memLoader map[string][]byte

func (m memLoader) Open(_ context.Context, src string) (io.ReadCloser, error) {
	b, ok := m[src]
	if !ok {
		return nil, fmt.Errorf("%s: %w", src, os.ErrNotExist)
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

func pngBytes(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// solid returns a w x h image of one colour.
func solid(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

// halves returns a w x h image, red on the left half and blue on the right.
func halves(w, h int) *image.NRGBA {
	img := solid(w, h, color.NRGBA{0, 0, 255, 255})
	for y := 0; y < h; y++ {
		for x := 0; x < w/2; x++ {
			img.SetNRGBA(x, y, color.NRGBA{255, 0, 0, 255})
		}
	}
	return img
}

func printSpace(w, h int) design.PrintSpace {
	return design.PrintSpace{Name: "front", Width: w, Height: h, DPI: 300, MinDPI: 150}
}

// near reports whether two colours are within tol on every channel.
func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}

// whole is an imagelimit.Stream of an image that is already decoded.
type whole struct{ img image.Image }

func (w whole) Image() image.Image { return w.img }
func (whole) WaitRows(int) error   { return nil }
func (whole) Wait() error          { return nil }
func (whole) Close()               {}
