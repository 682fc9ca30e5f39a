package mockup

import (
	"bytes"
	"image"
	"image/color"
	"testing"

	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/renderer/webpenc"
)

func TestPreview(t *testing.T) {
	tests := []struct {
		name         string
		w, h         int
		wantW, wantH int
		rgba         bool // an *image.RGBA: halved or returned as it is (variant.Scale makes an *image.NRGBA)
	}{
		{name: "2000 px flat mockup, block average", w: 2000, h: 2000, wantW: 500, wantH: 500, rgba: true},
		{name: "3D mockup, resampled", w: 1500, h: 1875, wantW: 400, wantH: 500},
		{name: "already small", w: 256, h: 256, wantW: 256, wantH: 256, rgba: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// left half opaque red, right half transparent
			src := image.NewRGBA(image.Rect(0, 0, tt.w, tt.h))
			for y := range tt.h {
				for x := range tt.w / 2 {
					src.SetRGBA(x, y, color.RGBA{200, 0, 0, 255})
				}
			}
			got := Preview(src)
			if b := got.Bounds(); b.Dx() != tt.wantW || b.Dy() != tt.wantH {
				t.Fatalf("preview %v, want %dx%d", b, tt.wantW, tt.wantH)
			}
			if _, ok := got.(*image.RGBA); ok != tt.rgba {
				t.Errorf("preview is %T, want an *image.RGBA: %v", got, tt.rgba)
			}
			if c := color.RGBAModel.Convert(got.At(tt.wantW/8, tt.wantH/2)).(color.RGBA); c != (color.RGBA{200, 0, 0, 255}) {
				t.Errorf("left pixel %v, want the red", c)
			}
			if c := color.RGBAModel.Convert(got.At(tt.wantW-tt.wantW/8, tt.wantH/2)).(color.RGBA); c.A != 0 {
				t.Errorf("right pixel %v, want transparent", c)
			}
		})
	}
}

func TestHalveAverages(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 4, 2))
	// block (0,0): 0,2,4,6 at alpha 255 => 3; block (1,0): all 10
	for i, v := range []uint8{0, 2, 10, 10, 4, 6, 10, 10} {
		src.SetRGBA(i%4, i/4, color.RGBA{v, v, v, 255})
	}
	got := halve(src, 1)
	if c := got.RGBAAt(0, 0); c != (color.RGBA{3, 3, 3, 255}) {
		t.Errorf("block 0 = %v, want 3", c)
	}
	if c := got.RGBAAt(1, 0); c != (color.RGBA{10, 10, 10, 255}) {
		t.Errorf("block 1 = %v, want 10", c)
	}
}

func TestEncodePreviewIsWebP(t *testing.T) {
	if !webpenc.Available {
		t.Skip("a build without cgo has no WebP encoder")
	}
	var buf bytes.Buffer
	if err := EncodePreview(&buf, image.NewRGBA(image.Rect(0, 0, 2000, 1000))); err != nil {
		t.Fatal(err)
	}
	cfg, err := webp.DecodeConfig(&buf)
	if err != nil || cfg.Width != 500 || cfg.Height != 250 {
		t.Fatalf("preview %+v (%v), want a 500x250 WebP", cfg, err)
	}
}
