package svgraster

import (
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/renderer/svgdoc"
)

// Goldens: every testdata/*.svg drawn at goldenSide pixels on its long side and compared with
// testdata/golden/<name>.png, which is Chromium's drawing of the same file (the SVG shown as an
// <img> of that size on a transparent page). The test therefore measures how close the renderer
// draws to a browser.
//
// Tolerance: the mean absolute difference over the premultiplied channels of all pixels must not
// exceed goldenMeanTolerance, and at most goldenBadFraction of the pixels may differ by more than
// goldenPixelTolerance in a channel: edges are anti-aliased differently (Skia against
// x/image/vector) and gradients dithered by Chromium, but a missing, moved or re-coloured shape
// fails. The worst measured: paths.svg, mean 0.91, whose half-transparent group is drawn shape by
// shape here (a browser composites the group first, so its overlap differs).
//
// PRESSROOM_UPDATE_GOLDEN=1 makes missing goldens with the Chromium at PRESSROOM_CHROMIUM_PATH
// (default /usr/bin/chromium); every mismatch (and, with PRESSROOM_DUMP_ACTUAL=1, every drawing) is
// written to testdata/actual/ for a look.
const (
	goldenSide           = 400
	goldenMeanTolerance  = 1.2
	goldenPixelTolerance = 64
	goldenBadFraction    = 0.001
)

func TestGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/*.svg")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures (%v)", err)
	}
	update := os.Getenv("PRESSROOM_UPDATE_GOLDEN") == "1"
	dump := os.Getenv("PRESSROOM_DUMP_ACTUAL") == "1"
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".svg")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := svgdoc.Parse(data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, err := Rasterize(context.Background(), doc, goldenSide)
			if err != nil {
				t.Fatalf("Rasterize: %v", err)
			}
			if dump {
				writePNG(t, filepath.Join("testdata/actual", name+".png"), got)
			}
			goldenPath := filepath.Join("testdata/golden", name+".png")
			want, err := readPNG(goldenPath)
			if err != nil {
				if !update {
					t.Fatalf("no golden %s (%v); PRESSROOM_UPDATE_GOLDEN=1 draws it with Chromium", goldenPath, err)
				}
				drawWithChromium(t, file, goldenPath, got.Rect.Dx(), got.Rect.Dy())
				if want, err = readPNG(goldenPath); err != nil {
					t.Fatal(err)
				}
			}
			d := diff(want, got)
			t.Logf("%s: %s", name, d)
			if !d.ok() {
				writePNG(t, filepath.Join("testdata/actual", name+".png"), got)
				t.Errorf("drawing differs from %s: %s; actual written to testdata/actual", goldenPath, d)
			}
		})
	}
}

// drawWithChromium has headless Chromium draw the SVG at w x h on a transparent page.
func drawWithChromium(t *testing.T, svgPath, out string, w, h int) {
	t.Helper()
	chromium := os.Getenv("PRESSROOM_CHROMIUM_PATH")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	dir := t.TempDir()
	abs, err := filepath.Abs(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "page.html")
	html := fmt.Sprintf(`<!doctype html><html><body style="margin:0;background:transparent">`+
		`<img src="file://%s" width="%d" height="%d" style="display:block"></body></html>`, abs, w, h)
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--force-device-scale-factor=1", "--default-background-color=00000000", "--allow-file-access-from-files",
		fmt.Sprintf("--window-size=%d,%d", w, h), "--screenshot="+shot, "file://"+page)
	if outb, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, outb)
	}
	img, err := readPNG(shot)
	if err != nil {
		t.Fatal(err)
	}
	crop := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(crop, crop.Rect, img, image.Point{}, draw.Src)
	writePNG(t, out, crop)
	t.Logf("wrote golden %s with %s", out, chromium)
}

type imageDiff struct {
	size      string
	mean, bad float64
	maxDelta  int
}

func (d imageDiff) ok() bool {
	return d.size == "" && d.mean <= goldenMeanTolerance && d.bad <= goldenBadFraction
}

func (d imageDiff) String() string {
	if d.size != "" {
		return d.size
	}
	return fmt.Sprintf("mean diff %.3f (tolerance %.1f), %.3f%% pixels off by more than %d (tolerance %.2f%%), max delta %d",
		d.mean, goldenMeanTolerance, d.bad*100, goldenPixelTolerance, goldenBadFraction*100, d.maxDelta)
}

func diff(want, got image.Image) imageDiff {
	a, b := toRGBA(want), toRGBA(got)
	if a.Rect.Size() != b.Rect.Size() {
		return imageDiff{size: fmt.Sprintf("size %v, want %v", b.Rect.Size(), a.Rect.Size())}
	}
	var sum float64
	bad, maxDelta := 0, 0
	for i := 0; i < len(a.Pix); i += 4 {
		off := false
		for c := range 4 {
			d := int(a.Pix[i+c]) - int(b.Pix[i+c])
			if d < 0 {
				d = -d
			}
			sum += float64(d)
			maxDelta = max(maxDelta, d)
			off = off || d > goldenPixelTolerance
		}
		if off {
			bad++
		}
	}
	n := float64(len(a.Pix) / 4)
	return imageDiff{mean: sum / (n * 4), bad: float64(bad) / n, maxDelta: maxDelta}
}

func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok && r.Rect.Min == (image.Point{}) {
		return r
	}
	out := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
	return out
}

func readPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}
