package webpenc

import (
	"bytes"
	"image"
	"image/color"
	"testing"

	"golang.org/x/image/webp"
)

func TestEncode(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	var b bytes.Buffer
	err := Encode(&b, img, 90)
	if !Available {
		if err != ErrUnavailable {
			t.Fatalf("without cgo: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := webp.DecodeConfig(&b)
	if err != nil || cfg.Width != 64 || cfg.Height != 48 {
		t.Fatalf("decoded %+v, %v", cfg, err)
	}
}
