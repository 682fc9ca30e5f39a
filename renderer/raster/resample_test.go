package raster

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"testing"
	"testing/iotest"

	xdraw "golang.org/x/image/draw"

	"github.com/pressroom/pressroom/renderer/internal/benchdata"
	"github.com/pressroom/pressroom/renderer/pngdec"
)

// xdrawResize is the peer the resampler is held to: golang.org/x/image/draw's Catmull-Rom, which also
// widens its kernel when shrinking and works in premultiplied alpha.
func xdrawResize(src image.Image, w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.CatmullRom.Scale(dst, dst.Rect, src, src.Bounds(), xdraw.Src, nil)
	return dst
}

func TestResampleMatchesXDraw(t *testing.T) {
	src := benchdata.Artwork(300, 360)
	tests := []struct {
		name string
		w, h int
	}{
		{"downscale", 173, 211},
		{"big downscale", 40, 48},
		{"upscale", 517, 600},
		{"identity", 300, 360},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := image.NewRGBA(image.Rect(0, 0, tt.w, tt.h))
			if err := resampleOver(context.Background(), got, src, fbox{0, 0, float64(tt.w), float64(tt.h)}, catmullRom, 2); err != nil {
				t.Fatal(err)
			}
			want := xdrawResize(src, tt.w, tt.h)
			d := diffImages(want, got)
			// The edges differ (x/image/draw renormalises taps past the border, we clamp them); allow a
			// little more than golden tolerance.
			if d.mean > 1.0 || d.bad > 0.01 {
				t.Errorf("differs from x/image/draw's Catmull-Rom: %s", d)
			}
		})
	}
}

// TestResampleTransparentRows: an artwork with transparent bands above and below (rows that resample
// to nothing and are skipped) upscaled over a coloured canvas: the canvas keeps its colour where the
// bands land, and the rows mixing band and artwork match x/image/draw's.
func TestResampleTransparentRows(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 60, 90))
	draw.Draw(src, image.Rect(0, 30, 60, 60), benchdata.Artwork(60, 30), image.Point{}, draw.Src)
	blue := color.RGBA{20, 40, 200, 255}
	got := image.NewRGBA(image.Rect(0, 0, 180, 270))
	draw.Draw(got, got.Rect, image.NewUniform(blue), image.Point{}, draw.Src)
	want := image.NewRGBA(got.Rect)
	draw.Draw(want, want.Rect, image.NewUniform(blue), image.Point{}, draw.Src)
	// the band rows, then a pass through the ring that has cached them, then the middle
	for _, k := range []kernel{catmullRom, lanczos3} {
		if err := resampleOver(context.Background(), got, src, fbox{0, 0, 180, 270}, k, 2); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 { // x/image/draw has no Lanczos: Catmull-Rom stands in for the second pass
		draw.Draw(want, want.Rect, xdrawResize(src, 180, 270), image.Point{}, draw.Over)
	}
	for _, y := range []int{0, 50, 80, 200, 269} {
		for x := range 180 {
			if c := got.RGBAAt(x, y); c != blue {
				t.Fatalf("pixel (%d, %d) under a transparent band = %v, want the canvas %v", x, y, c, blue)
			}
		}
	}
	if d := diffImages(want, got); d.mean > 1.0 || d.bad > 0.01 {
		t.Errorf("differs from x/image/draw composed over: %s", d)
	}
}

// TestRowFetcherTypes checks every fast path against the generic At path.
func TestRowFetcherTypes(t *testing.T) {
	art := benchdata.Artwork(40, 30)
	pal := image.NewPaletted(art.Rect, color.Palette{color.NRGBA{10, 20, 30, 255}, color.NRGBA{200, 100, 50, 128}, color.Transparent})
	draw.Draw(pal, pal.Rect, art, image.Point{}, draw.Src)
	n64 := image.NewNRGBA64(art.Rect)
	draw.Draw(n64, n64.Rect, art, image.Point{}, draw.Src)
	rgba := image.NewRGBA(art.Rect)
	draw.Draw(rgba, rgba.Rect, art, image.Point{}, draw.Src)
	gray := image.NewGray(art.Rect)
	draw.Draw(gray, gray.Rect, art, image.Point{}, draw.Src)
	ycc := image.NewYCbCr(art.Rect, image.YCbCrSubsampleRatio420)
	for y := 0; y < 30; y++ {
		for x := 0; x < 40; x++ {
			ycc.Y[ycc.YOffset(x, y)] = uint8(x * 6)
			ycc.Cb[ycc.COffset(x, y)] = uint8(y * 8)
			ycc.Cr[ycc.COffset(x, y)] = 128
		}
	}
	for name, img := range map[string]image.Image{"nrgba": art, "paletted": pal, "nrgba64": n64, "rgba": rgba, "gray": gray, "ycbcr": ycc} {
		t.Run(name, func(t *testing.T) {
			fast := rowFetcher(img, 3, 37)
			generic := rowFetcher(struct{ image.Image }{img}, 3, 37) // hides the concrete type
			a, b := make([]float32, 34*4), make([]float32, 34*4)
			for y := 0; y < 30; y++ {
				fast(y, a)
				generic(y, b)
				for i := range a {
					if d := a[i] - b[i]; d > 1 || d < -1 { // YCbCr: 8-bit vs 16-bit conversion
						t.Fatalf("row %d value %d: fast %.2f, generic %.2f", y, i, a[i], b[i])
					}
				}
			}
		})
	}
}

func TestResampleEdgesAndClipping(t *testing.T) {
	white := solid(10, 10, color.NRGBA{255, 255, 255, 255})
	tests := []struct {
		name string
		box  fbox
		x, y int
		want color.RGBA
	}{
		{"inside", fbox{2, 2, 10, 10}, 5, 5, color.RGBA{255, 255, 255, 255}},
		{"half-covered left column", fbox{2.5, 2, 10, 10}, 2, 5, color.RGBA{128, 128, 128, 128}},
		{"quarter-covered corner", fbox{2.5, 2.5, 10, 10}, 2, 2, color.RGBA{64, 64, 64, 64}},
		{"outside the box stays transparent", fbox{2, 2, 10, 10}, 1, 1, color.RGBA{}},
		{"clipped at the canvas edge", fbox{-5, -5, 10, 10}, 0, 0, color.RGBA{255, 255, 255, 255}},
		{"clipped past the far edge", fbox{15, 15, 10, 10}, 19, 19, color.RGBA{255, 255, 255, 255}},
		{"entirely outside", fbox{30, 30, 10, 10}, 19, 19, color.RGBA{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := image.NewRGBA(image.Rect(0, 0, 20, 20))
			if err := resampleOver(context.Background(), c, white, tt.box, catmullRom, 1); err != nil {
				t.Fatal(err)
			}
			if got := c.RGBAAt(tt.x, tt.y); !near(got, tt.want, 1) {
				t.Errorf("pixel (%d,%d) = %v, want %v", tt.x, tt.y, got, tt.want)
			}
		})
	}
}

// TestResampleTinyBox places a big image in a box far smaller than a pixel: the kernel must stay bounded
// (this used to ask for billions of taps) and the pixel gets the image's average, faded by its coverage.
func TestResampleTinyBox(t *testing.T) {
	c := image.NewRGBA(image.Rect(0, 0, 4, 4))
	if err := resampleOver(context.Background(), c, solid(500, 400, color.NRGBA{200, 100, 0, 255}), fbox{1, 1, 1e-9, 1e-9}, catmullRom, 1); err != nil {
		t.Fatal(err)
	}
	if got := c.RGBAAt(1, 1); got.A > 1 {
		t.Errorf("pixel = %v, want (almost) nothing", got)
	}
	c = image.NewRGBA(image.Rect(0, 0, 4, 4))
	if err := resampleOver(context.Background(), c, solid(500, 400, color.NRGBA{200, 100, 0, 255}), fbox{1, 1, 1, 1}, catmullRom, 1); err != nil {
		t.Fatal(err)
	}
	if got, want := c.RGBAAt(1, 1), (color.RGBA{200, 100, 0, 255}); !near(got, want, 1) {
		t.Errorf("pixel = %v, want %v", got, want)
	}
}

func TestResampleComposesOver(t *testing.T) {
	c := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := range c.Pix {
		c.Pix[i] = 255 // opaque white
	}
	half := solid(4, 4, color.NRGBA{0, 0, 0, 128})
	if err := resampleOver(context.Background(), c, half, fbox{0, 0, 4, 4}, catmullRom, 1); err != nil {
		t.Fatal(err)
	}
	if got, want := c.RGBAAt(1, 1), (color.RGBA{127, 127, 127, 255}); !near(got, want, 1) {
		t.Errorf("half-transparent black over white = %v, want %v", got, want)
	}
}

func TestResampleCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := image.NewRGBA(image.Rect(0, 0, 100, 100))
	if err := resampleOver(ctx, c, solid(10, 10, color.NRGBA{A: 255}), fbox{0, 0, 100, 100}, catmullRom, 2); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// BenchmarkResampleKernels measures the filter choice on the reference scale (4500x5400 -> 4000x4800) and a
// preview-size downscale, against x/image/draw's Catmull-Rom.
// Run: go test -run '^$' -bench ResampleKernels -benchtime 2x ./renderer/raster
func BenchmarkResampleKernels(b *testing.B) {
	src := benchdata.Artwork(4500, 5400)
	for _, size := range []struct {
		name string
		w, h int
	}{{"4000x4800", 4000, 4800}, {"1000x1200", 1000, 1200}} {
		for _, k := range []kernel{catmullRom, lanczos3} {
			b.Run(size.name+"/"+k.name, func(b *testing.B) {
				dst := image.NewRGBA(image.Rect(0, 0, size.w, size.h))
				for b.Loop() {
					if err := resampleOver(context.Background(), dst, src, fbox{0, 0, float64(size.w), float64(size.h)}, k, 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		b.Run(size.name+"/x-image-draw-catmull-rom", func(b *testing.B) {
			for b.Loop() {
				xdrawResize(src, size.w, size.h)
			}
		})
	}
}

// TestResampleWhileDecoding: resampling a PNG while it decodes gives exactly the pixels of resampling the
// decoded image, and a decoding error stops it.
func TestResampleWhileDecoding(t *testing.T) {
	data := pngBytes(t, benchdata.Artwork(300, 700))
	whole, err := pngdec.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	box := fbox{3.5, 2.25, 251, 599}
	want := image.NewRGBA(image.Rect(0, 0, 260, 610))
	if err := resampleOver(context.Background(), want, whole, box, catmullRom, 2); err != nil {
		t.Fatal(err)
	}
	d, err := pngdec.Start(iotest.HalfReader(bytes.NewReader(data)))
	if err != nil {
		t.Fatal(err)
	}
	got := image.NewRGBA(want.Rect)
	if err := resampleOverRows(context.Background(), got, d.Image(), d.WaitRows, box, catmullRom, 2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Pix, want.Pix) {
		t.Fatal("resampling while decoding differs from resampling the decoded image")
	}

	d, err = pngdec.Start(bytes.NewReader(data[:len(data)/3]))
	if err != nil {
		t.Fatal(err)
	}
	if err := resampleOverRows(context.Background(), got, d.Image(), d.WaitRows, box, catmullRom, 2); err == nil {
		t.Fatal("resampling a truncated PNG while it decodes returned nil")
	}
}
