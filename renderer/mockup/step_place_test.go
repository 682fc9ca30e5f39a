package mockup

import (
	"context"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"
)

var (
	white = color.RGBA{255, 255, 255, 255}
	blue  = color.RGBA{20, 40, 200, 255}
	red   = color.RGBA{255, 0, 0, 255}
	green = color.RGBA{0, 255, 0, 255}
)

func TestPlaceQuad(t *testing.T) {
	// a 4x4 blue print into the square (4,4)-(12,12) of a white 16x16 photo: inside blue, outside white
	tpl, l := synthetic(t, 16, "[[4, 4], [12, 4], [12, 12], [4, 12]]", "", nil)
	out, err := newRenderer(t, l).Render(context.Background(), solidRGBA(4, 4, blue), tpl, Options{Size: 16})
	if err != nil {
		t.Fatal(err)
	}
	for y := range 16 {
		for x := range 16 {
			want := white
			if x >= 4 && x < 12 && y >= 4 && y < 12 {
				want = blue
			}
			if got := at(out, x, y); got != want {
				t.Fatalf("pixel (%d, %d) = %v, want %v", x, y, got, want)
			}
		}
	}
}

func TestPlaceAntialiasedEdge(t *testing.T) {
	// the quad's left edge at x = 4.5 halves pixel 4's coverage
	tpl, l := synthetic(t, 16, "[[4.5, 4], [12, 4], [12, 12], [4.5, 12]]", "", nil)
	out, err := newRenderer(t, l).Render(context.Background(), solidRGBA(4, 4, color.RGBA{0, 0, 0, 255}), tpl, Options{Size: 16})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := at(out, 4, 8), (color.RGBA{127, 127, 127, 255}); !near(got, want, 1) {
		t.Errorf("edge pixel %v, want %v", got, want)
	}
	if got := at(out, 5, 8); got != (color.RGBA{0, 0, 0, 255}) {
		t.Errorf("inner pixel %v, want black", got)
	}
}

func TestPlacePerspectiveSamplesTheRightPoint(t *testing.T) {
	// a print of two halves (red | green) into a trapezoid: the boundary between them follows the
	// homography, so the pixel on each side of the image of the print's middle line has its colour
	quad := [4]Point{{8, 4}, {56, 12}, {56, 52}, {8, 60}}
	tpl, l := synthetic(t, 64, "[[8, 4], [56, 12], [56, 52], [8, 60]]", "", nil)
	print := image.NewRGBA(image.Rect(0, 0, 40, 40))
	for y := range 40 {
		for x := range 40 {
			c := red
			if x >= 20 {
				c = green
			}
			print.SetRGBA(x, y, c)
		}
	}
	out, err := newRenderer(t, l).Render(context.Background(), print, tpl, Options{Size: 64})
	if err != nil {
		t.Fatal(err)
	}
	h := rectToQuad(40, 40, quad)
	for _, v := range []float64{10, 20, 30} {
		mx, my := h.apply(20, v) // the middle line of the print
		left, right := at(out, int(mx)-2, int(my)), at(out, int(mx)+2, int(my))
		if !near(left, red, 2) || !near(right, green, 2) {
			t.Errorf("around (%.1f, %.1f): left %v, right %v; want red | green", mx, my, left, right)
		}
	}
}

func TestPlaceMaskAndShading(t *testing.T) {
	quad := "[[0, 0], [16, 0], [16, 16], [0, 16]]"
	tests := []struct {
		name        string
		extra       string
		files       map[string]image.Image
		left, right color.RGBA
	}{
		{"mask hides the print on the right", `, "mask": "mask.png"`,
			map[string]image.Image{"mask.png": leftGray(16, 16, 8, 255, 0)}, blue, white},
		{"half mask blends", `, "mask": "mask.png"`,
			map[string]image.Image{"mask.png": leftGray(16, 16, 8, 128, 255)}, color.RGBA{137, 147, 228, 255}, blue},
		{"shading darkens the print", `, "shadow": "shadow.png"`,
			map[string]image.Image{"shadow.png": leftGray(16, 16, 8, 128, 255)}, color.RGBA{10, 20, 100, 255}, blue},
		{"shading does not touch the base", `, "shadow": "shadow.png", "mask": "mask.png"`,
			map[string]image.Image{"shadow.png": solidGray(16, 16, 0), "mask.png": leftGray(16, 16, 8, 255, 0)}, color.RGBA{0, 0, 0, 255}, white},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl, l := synthetic(t, 16, quad, tt.extra, tt.files)
			out, err := newRenderer(t, l).Render(context.Background(), solidRGBA(8, 8, blue), tpl, Options{Size: 16})
			if err != nil {
				t.Fatal(err)
			}
			if got := at(out, 3, 8); !near(got, tt.left, 1) {
				t.Errorf("left %v, want %v", got, tt.left)
			}
			if got := at(out, 12, 8); !near(got, tt.right, 1) {
				t.Errorf("right %v, want %v", got, tt.right)
			}
		})
	}
}

func TestPlaceTransparentPrint(t *testing.T) {
	// a half-transparent print composites over the tinted base
	tpl, l := synthetic(t, 16, "[[0, 0], [16, 0], [16, 16], [0, 16]]", `, "tint": "tint.png", "color": "#000000"`,
		map[string]image.Image{"tint.png": solidGray(16, 16, 255)})
	half := solidRGBA(8, 8, color.RGBA{128, 128, 128, 128}) // premultiplied: white at 50 %
	out, err := newRenderer(t, l).Render(context.Background(), half, tpl, Options{Size: 16})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := at(out, 4, 4), (color.RGBA{128, 128, 128, 255}); !near(got, want, 1) {
		t.Errorf("got %v, want %v (white at 50%% over a black shirt)", got, want)
	}
}

func TestPlaceDisplacement(t *testing.T) {
	// a constant displacement of +2 px to the right shows the print 2 px further along: the red | green
	// boundary at x = 8 moves to x = 6
	tpl, l := synthetic(t, 16, "[[0, 0], [16, 0], [16, 16], [0, 16]]", `, "displacement": "d.png", "displacement_scale": 2`,
		map[string]image.Image{"d.png": solidRGBA(16, 16, color.RGBA{255, 128, 128, 255})})
	print := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for y := range 16 {
		for x := range 16 {
			print.SetRGBA(x, y, map[bool]color.RGBA{true: red, false: green}[x < 8])
		}
	}
	out, err := newRenderer(t, l).Render(context.Background(), print, tpl, Options{Size: 16})
	if err != nil {
		t.Fatal(err)
	}
	if got := at(out, 5, 8); got != red {
		t.Errorf("pixel 5 = %v, want red", got)
	}
	if got := at(out, 6, 8); got != green {
		t.Errorf("pixel 6 = %v, want green (shows print pixel 8)", got)
	}
	if got := at(out, 15, 8); got != white {
		t.Errorf("pixel 15 = %v, want the base: its displaced point is outside the quad", got)
	}
}

func TestPrefilterHalvesLargePrints(t *testing.T) {
	q := [4]Point{{0, 0}, {100, 0}, {100, 120}, {0, 120}}
	for _, tt := range []struct{ w, h, wantW int }{{100, 120, 100}, {199, 239, 199}, {200, 240, 100}, {1000, 1200, 125}} {
		got := prefilter(image.NewRGBA(image.Rect(0, 0, tt.w, tt.h)), q, 1)
		if got.Rect.Dx() != tt.wantW {
			t.Errorf("%dx%d into a 100x120 quad: prefiltered to width %d, want %d", tt.w, tt.h, got.Rect.Dx(), tt.wantW)
		}
	}
	m := halve(solidRGBA(3, 3, color.RGBA{10, 20, 30, 255}), 1)
	if m.Rect.Dx() != 2 || m.RGBAAt(1, 1) != (color.RGBA{10, 20, 30, 255}) {
		t.Errorf("halving a 3x3 solid: %v, %v", m.Rect, m.RGBAAt(1, 1))
	}
}

// TestHalveMatchesTheBlockAverage checks halve's packed arithmetic against the plain per-channel
// average of each 2x2 block, on random pixels (every byte value, partial alpha) of even and odd sizes.
func TestHalveMatchesTheBlockAverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for _, size := range [][2]int{{1, 1}, {2, 2}, {3, 5}, {7, 3}, {64, 33}, {101, 99}, {300, 200}} {
		sw, sh := size[0], size[1]
		src := image.NewRGBA(image.Rect(0, 0, sw, sh))
		for i := range src.Pix {
			src.Pix[i] = uint8(rng.IntN(256))
		}
		got := halve(src, 3) // bands of rows on three goroutines once there are 64 rows
		if got.Rect != image.Rect(0, 0, (sw+1)/2, (sh+1)/2) {
			t.Fatalf("%dx%d halved to %v", sw, sh, got.Rect)
		}
		for y := range got.Rect.Dy() {
			for x := range got.Rect.Dx() {
				x1, y1 := min(2*x+1, sw-1), min(2*y+1, sh-1)
				for c := range 4 {
					sum := int(src.Pix[src.PixOffset(2*x, 2*y)+c]) + int(src.Pix[src.PixOffset(x1, 2*y)+c]) +
						int(src.Pix[src.PixOffset(2*x, y1)+c]) + int(src.Pix[src.PixOffset(x1, y1)+c])
					if want := uint8((sum + 2) >> 2); got.Pix[got.PixOffset(x, y)+c] != want {
						t.Fatalf("%dx%d: pixel (%d, %d) channel %d = %d, want %d", sw, sh, x, y, c, got.Pix[got.PixOffset(x, y)+c], want)
					}
				}
			}
		}
	}
}
