package svgraster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/renderer/svgdoc"
)

func parse(t testing.TB, svg string) *svgdoc.Doc {
	t.Helper()
	doc, err := svgdoc.Parse([]byte(svg))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return doc
}

func TestSize(t *testing.T) {
	for _, tc := range []struct {
		viewBox string
		w, h    int
	}{
		{"0 0 100 50", 4000, 2000},
		{"0 0 50 100", 2000, 4000},
		{"0 0 1 1", 4000, 4000},
		{"0 0 100 1", 4000, 40},
	} {
		doc := parse(t, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="`+tc.viewBox+`"/>`)
		if w, h := Size(doc, 4000); w != tc.w || h != tc.h {
			t.Errorf("%s: %dx%d, want %dx%d", tc.viewBox, w, h, tc.w, tc.h)
		}
	}
}

// TestRefusals: drawings that would keep the renderer busy are refused with a message, never drawn.
func TestRefusals(t *testing.T) {
	var many strings.Builder
	many.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">`)
	for range WorkLimit + 10 {
		many.WriteString(`<rect width="10" height="10" fill-opacity="0.01"/>`)
	}
	many.WriteString(`</svg>`)
	nested := `<rect width="1" height="1"/>`
	for range 12 {
		nested = `<g transform="scale(10)">` + nested + `</g>`
	}
	for _, tc := range []struct {
		name string
		svg  string
		kind error
	}{
		{"shapes covering the picture too many times", many.String(), ErrTooMuchWork},
		{"transforms compounding far outside", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">` + nested + `</svg>`, ErrOutside},
		{"a stroke wider than the reach", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">` +
			`<g transform="scale(1000)"><line x2="1" stroke="#000" stroke-width="100"/></g></svg>`, ErrOutside},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Rasterize(context.Background(), parse(t, tc.svg), 200)
			var ref *svgdoc.Refusal
			if !errors.Is(err, tc.kind) || !errors.As(err, &ref) || ref.Error() == "" {
				t.Fatalf("err = %v, want a refusal of kind %v", err, tc.kind)
			}
		})
	}
}

func TestRasterizeStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	doc := parse(t, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5"/></svg>`)
	if _, err := Rasterize(ctx, doc, 100); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestRasterizeDrawsAtPrintSize(t *testing.T) {
	doc := parse(t, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect x="10" width="10" height="10" fill="#ff0000"/></svg>`)
	img, err := Rasterize(context.Background(), doc, 4000)
	if err != nil {
		t.Fatal(err)
	}
	if img.Rect.Dx() != 4000 || img.Rect.Dy() != 2000 {
		t.Fatalf("size %v", img.Rect)
	}
	if got := img.RGBAAt(1000, 1000); got.A != 0 {
		t.Errorf("left half = %v, want transparent", got)
	}
	if got := img.RGBAAt(3000, 1000); got.R != 255 || got.A != 255 || got.G != 0 {
		t.Errorf("right half = %v, want opaque red", got)
	}
}

// BenchmarkRasterize draws the fixtures at the print size cliparts are stored at.
func BenchmarkRasterize(b *testing.B) {
	for _, name := range []string{"illustrator", "inkscape", "gradients"} {
		data, err := os.ReadFile("testdata/" + name + ".svg")
		if err != nil {
			b.Fatal(err)
		}
		doc, err := svgdoc.Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(name), func(b *testing.B) {
			for b.Loop() {
				if _, err := Rasterize(context.Background(), doc, 4000); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
