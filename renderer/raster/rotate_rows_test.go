package raster

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/imagelimit"
)

// noise is a w x h image of random colours and alphas, so that every kernel tap counts.
func noise(w, h int) *image.NRGBA {
	r := rand.New(rand.NewPCG(1, 2))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.IntN(256))
	}
	return img
}

// A rotated image drawn through a window of its rows is the image drawn whole, to rounding, while
// the window holds far fewer rows than the image.
func TestDrawRotatedRowsMatchesTheWholeImage(t *testing.T) {
	src := noise(300, 1400)
	data := pngBytes(t, src)
	for _, tt := range []struct {
		name string
		o    design.ImageObject
	}{
		{"a few degrees", design.ImageObject{X: 40, Y: 30, Width: 300, Height: 1400, Rotation: 3}},
		{"the other way", design.ImageObject{X: 60, Y: 80, Width: 300, Height: 1400, Rotation: -7}},
		{"enlarged", design.ImageObject{X: -50, Y: -20, Width: 450, Height: 2100, Rotation: 11.5}},
		{"past the canvas", design.ImageObject{X: 200, Y: 900, Width: 300, Height: 1400, Rotation: 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.o
			want := image.NewRGBA(image.Rect(0, 0, 500, 1600))
			if err := drawImage(context.Background(), want, whole{src}, &o, 1, 1); err != nil {
				t.Fatal(err)
			}
			got := image.NewRGBA(want.Rect)
			var placed image.Point
			err := drawRotatedRows(context.Background(), got, bytes.NewReader(data), imagelimit.Config{}, &o, 1,
				func(w, h int) { placed = image.Pt(w, h) })
			if err != nil {
				t.Fatal(err)
			}
			if placed != image.Pt(300, 1400) {
				t.Fatalf("placed %v", placed)
			}
			worst := 0
			for i := range want.Pix {
				worst = max(worst, int(want.Pix[i])-int(got.Pix[i]), int(got.Pix[i])-int(want.Pix[i]))
			}
			if worst > 1 {
				t.Fatalf("windowed rows differ from the whole image by up to %d", worst)
			}
			if bytes.Equal(got.Pix, image.NewRGBA(want.Rect).Pix) {
				t.Fatal("nothing drawn")
			}
		})
	}
}

// Shrunk, turned past a quarter, or not an RGBA PNG: drawn whole instead, with nothing drawn here.
func TestDrawRotatedRowsLeavesOtherImagesWhole(t *testing.T) {
	rgba := pngBytes(t, noise(100, 400))
	gray := pngBytes(t, image.NewGray(image.Rect(0, 0, 100, 400)))
	for _, tt := range []struct {
		name string
		data []byte
		o    design.ImageObject
		want error
	}{
		{"shrunk", rgba, design.ImageObject{Width: 50, Height: 200, Rotation: 3}, errWholeImage},
		{"upside down", rgba, design.ImageObject{Width: 100, Height: 400, Rotation: 180}, errWholeImage},
		{"turned by a quarter", rgba, design.ImageObject{X: 250, Y: 50, Width: 100, Height: 400, Rotation: 90}, errWholeImage},
		{"turned far enough to need most rows", rgba, design.ImageObject{X: 250, Y: 50, Width: 100, Height: 400, Rotation: 60}, errWholeImage},
		{"grey", gray, design.ImageObject{Width: 100, Height: 400, Rotation: 3}, imagelimit.ErrRowsUnsupported},
	} {
		t.Run(tt.name, func(t *testing.T) {
			canvas := image.NewRGBA(image.Rect(0, 0, 300, 500))
			o := tt.o
			err := drawRotatedRows(context.Background(), canvas, bytes.NewReader(tt.data), imagelimit.Config{}, &o, 1, func(int, int) {})
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if canvas.RGBAAt(150, 250) != (color.RGBA{}) {
				t.Fatal("drew although it refused")
			}
		})
	}
}
