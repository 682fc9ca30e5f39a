package seed

import (
	"bytes"
	"image/png"
	"testing"
)

// The demo symbols are their shapes: a heart and a star filling a fair part of the square, centred,
// with transparent corners.
func TestDemoSymbols(t *testing.T) {
	for _, s := range demoSymbols {
		t.Run(s.name, func(t *testing.T) {
			b, err := drawSymbol(s)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			filled := 0
			for y := range symbolSize {
				for x := range symbolSize {
					if _, _, _, a := img.At(x, y).RGBA(); a > 0 {
						filled++
					}
				}
			}
			share := float64(filled) / (symbolSize * symbolSize)
			if share < 0.2 || share > 0.75 {
				t.Errorf("%s fills %.2f of its square, want 0.2 to 0.75", s.name, share)
			}
			if _, _, _, a := img.At(symbolSize/2, symbolSize/2).RGBA(); a == 0 {
				t.Errorf("%s: the centre is empty", s.name)
			}
			for _, c := range [][2]int{{1, 1}, {symbolSize - 2, 1}, {1, symbolSize - 2}, {symbolSize - 2, symbolSize - 2}} {
				if _, _, _, a := img.At(c[0], c[1]).RGBA(); a != 0 {
					t.Errorf("%s: corner %v is filled", s.name, c)
				}
			}
		})
	}
}
