package mockup_test

import (
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/pressroom/pressroom/renderer/internal/benchdata"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/mockup/demo"
)

// Golden mockups: every demo template drawn with a goldenSide photo, the benchdata artwork placed on it in
// a product colour, compared with testdata/golden/<id>.png by measured pixel difference.
//
// Tolerance: the mean absolute difference over all channels (0..255) must not exceed goldenMeanTolerance
// and at most goldenBadFraction of the pixels may differ by more than goldenPixelTolerance in a channel.
// Measured: builds with GOAMD64=v1 and v3 (where the compiler may fuse multiply-adds, as on arm64) render
// byte-identical mockups; moving the print area by 0.01 pixel, far more than any rounding difference,
// gives a mean of 0.007 with no pixel off by more than 3; moving it by one pixel gives a mean of 0.65 with
// 2.5% of the pixels off by more than 8 (TestGoldenTolerance logs both with -v). The tolerance sits
// between the two: about seven times the first, and it fails on a moved quad, a lost mask or tint, or a
// changed shading.
//
// PRESSROOM_UPDATE_GOLDEN=1 writes missing goldens and rewrites mismatching ones; every mismatch (and, with
// PRESSROOM_DUMP_ACTUAL=1, every render) is written to testdata/actual/ for a look.
const (
	goldenSide           = 256
	goldenMeanTolerance  = 0.05
	goldenPixelTolerance = 8
	goldenBadFraction    = 0.0005
)

var goldenColors = map[string]string{
	"tshirt-front": "#1f3a68",
	"tshirt-back":  "#c81e3c",
	"hoodie-front": "#2e5e4e",
	"mug-wrap":     "#f4d35e",
}

func TestGoldenMockups(t *testing.T) {
	update := os.Getenv("PRESSROOM_UPDATE_GOLDEN") == "1"
	dump := os.Getenv("PRESSROOM_DUMP_ACTUAL") == "1"
	print := benchdata.Artwork(400, 480)
	for _, id := range demo.IDs() {
		t.Run(id, func(t *testing.T) {
			set, err := demo.Draw(id, goldenSide)
			if err != nil {
				t.Fatal(err)
			}
			r, err := mockup.New(mockup.DefaultConfig(), set.Loader())
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Render(context.Background(), print, set.Template, mockup.Options{Color: goldenColors[id], Size: goldenSide})
			if err != nil {
				t.Fatal(err)
			}
			goldenPath := filepath.Join("testdata", "golden", id+".png")
			actualPath := filepath.Join("testdata", "actual", id+".png")
			if dump {
				writePNG(t, actualPath, got)
			}
			want, err := readPNG(goldenPath)
			if err != nil {
				if update {
					writePNG(t, goldenPath, got)
					t.Logf("wrote golden %s", goldenPath)
					return
				}
				t.Fatalf("%v (PRESSROOM_UPDATE_GOLDEN=1 writes it)", err)
			}
			d := diffImages(want, got)
			t.Logf("%s: %s", id, d)
			if d.ok() {
				return
			}
			writePNG(t, actualPath, got)
			if update {
				writePNG(t, goldenPath, got)
				t.Logf("rewrote golden %s", goldenPath)
				return
			}
			t.Errorf("mockup differs from %s: %s; actual written to %s", goldenPath, d, actualPath)
		})
	}
}

// TestGoldenTolerance checks the tolerance against two perturbations of the tshirt-front mockup: moving
// the print area by 0.01 pixel (far more than any floating-point difference between builds) must pass,
// moving it by one pixel must fail.
func TestGoldenTolerance(t *testing.T) {
	set, err := demo.Draw("tshirt-front", goldenSide)
	if err != nil {
		t.Fatal(err)
	}
	print := benchdata.Artwork(400, 480)
	render := func(dx float64) *image.RGBA {
		t.Helper()
		tpl := *set.Template
		for i := range tpl.Quad {
			tpl.Quad[i].X += dx
		}
		r, err := mockup.New(mockup.DefaultConfig(), set.Loader())
		if err != nil {
			t.Fatal(err)
		}
		img, err := r.Render(context.Background(), print, &tpl, mockup.Options{Color: goldenColors["tshirt-front"], Size: goldenSide})
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	base := render(0)
	if d := diffImages(base, render(0.01)); !d.ok() {
		t.Errorf("a 0.01 px move fails: %s", d)
	} else {
		t.Logf("0.01 px move: %s", d)
	}
	if d := diffImages(base, render(1)); d.ok() {
		t.Errorf("a 1 px move passes: %s", d)
	} else {
		t.Logf("1 px move: %s", d)
	}
}

// imageDiff is a measured difference between two images of the same size.
type imageDiff struct {
	sizeMismatch string
	mean         float64 // mean absolute channel difference
	bad          float64 // fraction of pixels with a channel off by more than goldenPixelTolerance
	maxDelta     int
}

func (d imageDiff) ok() bool {
	return d.sizeMismatch == "" && d.mean <= goldenMeanTolerance && d.bad <= goldenBadFraction
}

func (d imageDiff) String() string {
	if d.sizeMismatch != "" {
		return d.sizeMismatch
	}
	return fmt.Sprintf("mean diff %.4f (tolerance %.3f), %.4f%% pixels off by more than %d (tolerance %.4f%%), max delta %d",
		d.mean, goldenMeanTolerance, d.bad*100, goldenPixelTolerance, goldenBadFraction*100, d.maxDelta)
}

func diffImages(want, got image.Image) imageDiff {
	a, b := toRGBA(want), toRGBA(got)
	if a.Rect.Size() != b.Rect.Size() {
		return imageDiff{sizeMismatch: fmt.Sprintf("size %v, want %v", b.Rect.Size(), a.Rect.Size())}
	}
	var sum float64
	var bad, maxDelta int
	for i := 0; i < len(a.Pix); i += 4 {
		worst := 0
		for c := range 4 {
			d := int(a.Pix[i+c]) - int(b.Pix[i+c])
			if d < 0 {
				d = -d
			}
			sum += float64(d)
			worst = max(worst, d)
		}
		if worst > goldenPixelTolerance {
			bad++
		}
		maxDelta = max(maxDelta, worst)
	}
	return imageDiff{mean: sum / float64(len(a.Pix)), bad: float64(bad) / float64(len(a.Pix)/4), maxDelta: maxDelta}
}

func toRGBA(img image.Image) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok && m.Rect.Min == (image.Point{}) {
		return m
	}
	m := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(m, m.Rect, img, img.Bounds().Min, draw.Src)
	return m
}

func readPNG(p string) (image.Image, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

func writePNG(t testing.TB, p string, img image.Image) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
