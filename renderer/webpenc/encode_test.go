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

// Semi-transparent pixels keep their colour whatever the image type: chai2010/webp would otherwise
// hand premultiplied bytes to libwebp as straight alpha and halve them. (Lossy WebP converts to YUV
// with subsampled chroma: the colour comes back about 12 off, not halved.)
func TestEncodeKeepsSemiTransparentColour(t *testing.T) {
	if !Available {
		t.Skip("built without cgo")
	}
	want := color.NRGBA{200, 150, 100, 128}
	nrgba := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	rgba := image.NewRGBA(image.Rect(0, 0, 32, 32))
	paletted := image.NewPaletted(image.Rect(0, 0, 32, 32), color.Palette{want})
	for y := range 32 {
		for x := range 32 {
			nrgba.SetNRGBA(x, y, want)
			rgba.Set(x, y, want)
		}
	}
	for name, img := range map[string]image.Image{
		"NRGBA": nrgba, "RGBA": rgba, "Paletted": paletted, "RGBA sub-image": rgba.SubImage(image.Rect(8, 8, 24, 24)),
	} {
		var b bytes.Buffer
		if err := Encode(&b, img, 100); err != nil {
			t.Fatal(err)
		}
		got, err := webp.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		c := color.NRGBAModel.Convert(got.At(got.Bounds().Min.X+4, got.Bounds().Min.Y+4)).(color.NRGBA)
		if diff(c.R, want.R) > 16 || diff(c.G, want.G) > 16 || diff(c.B, want.B) > 16 || diff(c.A, want.A) > 2 {
			t.Errorf("%s: decoded %v, want about %v", name, c, want)
		}
	}
}

func diff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
