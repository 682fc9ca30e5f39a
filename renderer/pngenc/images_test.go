package pngenc_test

import (
	"image"
	"image/color"
	"image/draw"
	"math"
)

// photoLike returns an opaque image with smooth gradients, soft blobs and
// pixel noise of a few levels, compressing like a photograph or painted
// artwork does.
func photoLike(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	seed := uint32(12345)
	for y := range h {
		fy := float64(y) / float64(h)
		for x := range w {
			fx := float64(x) / float64(w)
			seed = seed*1664525 + 1013904223
			n := float64(int(seed>>29)) - 3.5 // noise in [-3.5, 3.5]
			v := 0.5 + 0.5*math.Sin(6*fx+4*fy)*math.Cos(5*fy-3*fx)
			i := img.PixOffset(x, y)
			img.Pix[i] = clamp(255*fx*v + 40 + n)
			img.Pix[i+1] = clamp(255*fy*(1-v) + 30 + n)
			img.Pix[i+2] = clamp(200*v + n)
			img.Pix[i+3] = 255
		}
	}
	return img
}

// flatArtwork returns a typical print design: a transparent background with
// flat-coloured shapes, stripes and anti-aliased circle edges.
func flatArtwork(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	cx, cy, r := float64(w)/2, float64(h)/2.5, float64(min(w, h))/3
	for y := range h {
		for x := range w {
			var c color.NRGBA
			d := math.Hypot(float64(x)-cx, float64(y)-cy)
			switch {
			case d < r-1:
				if (y/(h/40+1))%2 == 0 {
					c = color.NRGBA{220, 40, 60, 255}
				} else {
					c = color.NRGBA{250, 200, 30, 255}
				}
			case d < r+1: // anti-aliased edge
				c = color.NRGBA{220, 40, 60, uint8(255 * (r + 1 - d) / 2)}
			case y > h*3/4 && y < h*3/4+h/10 && x > w/8 && x < w*7/8:
				c = color.NRGBA{20, 20, 20, 255} // a text bar
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// premultiplied returns the RGBA (premultiplied) version of an image with
// partial alpha everywhere.
func premultiplied(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			a := uint8((x*31 + y*17) % 256)
			img.Set(x, y, color.NRGBA{uint8(x * 3), uint8(y * 5), uint8(x + y), a})
		}
	}
	return img
}

// rgbaOf is img premultiplied.
func rgbaOf(img image.Image) *image.RGBA {
	m := image.NewRGBA(img.Bounds())
	draw.Draw(m, m.Rect, img, img.Bounds().Min, draw.Src)
	return m
}

func clamp(v float64) uint8 {
	return uint8(max(0, min(255, v)))
}
