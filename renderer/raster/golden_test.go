package raster

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/renderer/design"
)

// Golden print files: every valid fixture in schema/testdata/designs/valid rendered at goldenWidth and
// compared with testdata/golden/<name>.png by measured pixel difference.
//
// Tolerance: the mean absolute difference over all channels of all pixels (premultiplied, 0..255) must not
// exceed goldenMeanTolerance, and at most goldenBadFraction of the pixels may differ by more than
// goldenPixelTolerance in any channel. That absorbs floating-point and font-rasteriser noise and still fails
// on a moved, missing, re-coloured or differently laid-out object.
//
// PRESSROOM_UPDATE_GOLDEN=1 writes missing goldens and rewrites mismatching ones; every mismatch (and, with
// PRESSROOM_DUMP_ACTUAL=1, every render) is written to testdata/actual/ for a look. A change that rewrites
// goldens also raises renderer/export's renderVersion, so that print files of the old output are no longer
// copied to identical designs.
const (
	goldenWidth          = 600
	goldenMeanTolerance  = 0.5
	goldenPixelTolerance = 24
	goldenBadFraction    = 0.002
)

const (
	fixturesDir = "../../schema/testdata/designs"
	goldenDir   = "testdata/golden"
	actualDir   = "testdata/actual"
)

// fixtureLoader reads relative sources from the valid fixtures' folder and serves blob keys and URLs from
// the assets folder by base name, standing in for the blob store.
func fixtureLoader() Loader {
	rel := DirLoader{Dir: filepath.Join(fixturesDir, "valid")}
	return LoaderFunc(func(ctx context.Context, src string) (io.ReadCloser, error) {
		if design.SourceKindOf(src) == design.SourceRelative {
			return rel.Open(ctx, src)
		}
		return os.Open(filepath.Join(fixturesDir, "assets", path.Base(src)))
	})
}

func validFixtures(t testing.TB) map[string]*design.Document {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(fixturesDir, "valid", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no valid fixtures (%v)", err)
	}
	docs := map[string]*design.Document{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := design.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		docs[strings.TrimSuffix(filepath.Base(f), ".json")] = doc
	}
	return docs
}

func TestGoldenPrintFiles(t *testing.T) {
	update := os.Getenv("PRESSROOM_UPDATE_GOLDEN") == "1"
	dumpAll := os.Getenv("PRESSROOM_DUMP_ACTUAL") == "1"
	for name, doc := range validFixtures(t) {
		t.Run(name, func(t *testing.T) {
			got, rep, err := Render(context.Background(), doc, Options{Width: goldenWidth, Loader: fixtureLoader()})
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			if dumpAll {
				writePNG(t, filepath.Join(actualDir, name+".png"), got)
				writeJSON(t, filepath.Join(actualDir, name+".report.json"), rep)
			}
			goldenPath := filepath.Join(goldenDir, name+".png")
			want, err := readPNG(goldenPath)
			if err != nil {
				if update {
					writePNG(t, goldenPath, got)
					t.Logf("wrote missing golden %s", goldenPath)
					return
				}
				t.Fatalf("no golden %s (%v); run with PRESSROOM_UPDATE_GOLDEN=1 to write it", goldenPath, err)
			}
			d := diffImages(want, got)
			if d.ok() {
				return
			}
			writePNG(t, filepath.Join(actualDir, name+".png"), got)
			if update {
				writePNG(t, goldenPath, got)
				t.Logf("rewrote golden %s (%s)", goldenPath, d)
				return
			}
			t.Errorf("render differs from %s: %s; actual written to %s", goldenPath, d, actualDir)
		})
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
	return fmt.Sprintf("mean diff %.3f (tolerance %.3f), %.4f%% pixels off by more than %d (tolerance %.4f%%), max delta %d",
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

func writeJSON(t testing.TB, p string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
