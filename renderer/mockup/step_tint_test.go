package mockup

import (
	"context"
	"image"
	"image/color"
	"testing"
)

func TestTint(t *testing.T) {
	// tint map: full on the left quarter, half on the next, none on the right half
	tintMap := image.NewGray(image.Rect(0, 0, 16, 16))
	for y := range 16 {
		for x := range 16 {
			tintMap.Pix[y*16+x] = [4]uint8{255, 128, 0, 0}[x/4]
		}
	}
	tpl, l := synthetic(t, 16, "[[4, 4], [12, 4], [12, 12], [4, 12]]", `, "tint": "tint.png", "color": "#1f3a68"`,
		map[string]image.Image{"tint.png": tintMap})
	r := newRenderer(t, l)
	clearPrint := image.NewRGBA(image.Rect(0, 0, 8, 8)) // transparent: only the base shows
	tests := []struct {
		name  string
		color string
		full  color.RGBA
		half  color.RGBA
	}{
		{"template colour", "", color.RGBA{0x1f, 0x3a, 0x68, 255}, color.RGBA{143, 157, 179, 255}},
		{"red", "#ff0000", color.RGBA{255, 0, 0, 255}, color.RGBA{255, 127, 127, 255}},
		{"white leaves the base", "#ffffff", color.RGBA{255, 255, 255, 255}, color.RGBA{255, 255, 255, 255}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := r.Render(context.Background(), clearPrint, tpl, Options{Color: tt.color, Size: 16})
			if err != nil {
				t.Fatal(err)
			}
			if got := at(out, 1, 8); !near(got, tt.full, 1) {
				t.Errorf("fully tinted pixel %v, want %v", got, tt.full)
			}
			if got := at(out, 5, 8); !near(got, tt.half, 1) {
				t.Errorf("half tinted pixel %v, want %v", got, tt.half)
			}
			if got := at(out, 12, 8); got != (color.RGBA{255, 255, 255, 255}) {
				t.Errorf("untinted pixel %v, want the white base", got)
			}
		})
	}
}

func TestTintMultipliesTheBase(t *testing.T) {
	// a grey base under a full tint: grey times the colour
	tpl, l := synthetic(t, 16, "[[0, 0], [16, 0], [16, 16], [0, 16]]", `, "tint": "tint.png"`,
		map[string]image.Image{"tint.png": solidGray(16, 16, 255)})
	l.files["base.png"] = pngOf(t, solidRGBA(16, 16, color.RGBA{200, 200, 200, 255}))
	out, err := newRenderer(t, l).Render(context.Background(), image.NewRGBA(image.Rect(0, 0, 4, 4)), tpl, Options{Color: "#808080", Size: 16})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := at(out, 3, 3), (color.RGBA{100, 100, 100, 255}); !near(got, want, 1) {
		t.Errorf("got %v, want %v (200 * 128/255)", got, want)
	}
}
