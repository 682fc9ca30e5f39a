package mockup_test

import (
	"bytes"
	"context"
	"image"
	"testing"

	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/mockup/demo"
)

// TestSourceMakesTheSameMockups holds Source's promise where it is tightest, on the demo template with
// the largest print area (the poster's, 1360x1500 px at 2000 px): the mockups of a 4500x5400 print file
// and of its source are identical, and the source has a quarter of the pixels.
func TestSourceMakesTheSameMockups(t *testing.T) {
	print := pattern(4500, 5400)
	src := mockup.Source(print)
	if w, h := src.Rect.Dx(), src.Rect.Dy(); w != 2250 || h != 2700 {
		t.Fatalf("source is %dx%d, want 2250x2700", w, h)
	}
	set, err := demo.Draw("poster", demo.DefaultSide)
	if err != nil {
		t.Fatal(err)
	}
	r, err := mockup.New(mockup.DefaultConfig(), set.Loader())
	if err != nil {
		t.Fatal(err)
	}
	opt := mockup.Options{Color: "#1f3a68"}
	want, err := r.Render(context.Background(), print, set.Template, opt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Render(context.Background(), src, set.Template, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Pix, want.Pix) {
		t.Errorf("the mockup of the source differs from the mockup of the print file")
	}
}

// TestSourceKeepsSmallPrints: a print file with a side under 4000 px is its own source.
func TestSourceKeepsSmallPrints(t *testing.T) {
	print := pattern(3999, 6000)
	if src := mockup.Source(print); src != print {
		t.Fatalf("source of a 3999x6000 print is a %v copy, want the print itself", src.Rect)
	}
}

// pattern is a premultiplied print file with detail at every scale: rings of colour, a transparent
// margin and partly transparent pixels.
func pattern(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := h / 10; y < h-h/10; y++ {
		for x := w / 10; x < w-w/10; x++ {
			i := img.PixOffset(x, y)
			a := uint8(128 + (x^y)&127)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8((x*x+y*y)>>9)&a, uint8(x*7)&a, uint8(y*3)&a, a
		}
	}
	return img
}
