package benchdata

import (
	"image"
	"image/color"
	"math"
)

// Artwork draws a w x h artwork: a colour gradient, rings, a textured disc and a fading transparent band
// along the bottom, so scaling, alpha and compositing all show in a render. It is deterministic.
func Artwork(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	cx, cy := float64(w)*0.5, float64(h)*0.42
	rMax := math.Min(float64(w), float64(h)) * 0.45
	var seed uint32 = 2463534242
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+w*4]
		fy := float64(y) / float64(h)
		alpha := 255.0
		if fy > 0.85 {
			alpha = 255 * (1 - (fy-0.85)/0.15)
		}
		for x := 0; x < w; x++ {
			fx := float64(x) / float64(w)
			r := 40 + 200*fx
			g := 60 + 150*fy
			b := 220 - 180*fx*fy
			dx, dy := float64(x)-cx, float64(y)-cy
			d := math.Sqrt(dx*dx+dy*dy) / rMax
			switch {
			case d < 0.55:
				// textured disc: warm colours with a little deterministic noise, like a photo
				seed ^= seed << 13
				seed ^= seed >> 17
				seed ^= seed << 5
				n := float64(seed%9) - 4
				r, g, b = 230+n, 150+80*(dy/rMax)+n, 60+n
			case d < 1 && int(d*10)%2 == 0:
				r, g, b = 250, 250, 245
			}
			i := x * 4
			row[i+0] = clamp8(r)
			row[i+1] = clamp8(g)
			row[i+2] = clamp8(b)
			row[i+3] = clamp8(alpha)
		}
	}
	return img
}

// Pattern draws a w x h diagonal-stripe pattern for text filled with an image (displayStyle
// image_background).
func Pattern(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	colors := []color.NRGBA{{220, 30, 60, 255}, {250, 190, 20, 255}, {30, 120, 220, 255}}
	band := max(w/8, 1)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, colors[((x+y)/band)%len(colors)])
		}
	}
	return img
}

func clamp8(v float64) uint8 {
	if v <= 0 {
		return 0
	}
	if v >= 255 {
		return 255
	}
	return uint8(v + 0.5)
}
