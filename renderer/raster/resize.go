package raster

import (
	"context"
	"image"
	"image/draw"
	"math"
)

// Resize scales src to w x h with the renderer's own resampler (Catmull-Rom, widened when shrinking,
// in premultiplied alpha; see the package doc) and answers it with straight alpha, for the code that
// scales whole images outside a design: thumbnails, variants, mockup templates, the 3D texture.
func Resize(src image.Image, w, h int) *image.NRGBA {
	w, h = max(w, 1), max(h, 1)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	// Without a deadline the resampler has nothing to fail on.
	_ = resampleOver(context.Background(), dst, src, fbox{0, 0, float64(w), float64(h)}, catmullRom, 0)
	return NRGBA(dst)
}

// Fit is Resize to the largest size within maxW x maxH that keeps src's aspect ratio; a src that
// already fits is copied unscaled (never enlarged).
func Fit(src image.Image, maxW, maxH int) *image.NRGBA {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	if sw <= maxW && sh <= maxH {
		return NRGBA(src)
	}
	w, h := maxW, int(math.Round(float64(sh)*float64(maxW)/float64(sw)))
	if float64(sw)/float64(sh) < float64(maxW)/float64(maxH) {
		w, h = int(math.Round(float64(sw)*float64(maxH)/float64(sh))), maxH
	}
	return Resize(src, w, h)
}

// NRGBA copies src into a new straight-alpha image whose bounds start at (0, 0).
func NRGBA(src image.Image) *image.NRGBA {
	b := src.Bounds()
	dst := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Rect, src, b.Min, draw.Src)
	return dst
}
