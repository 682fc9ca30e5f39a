package raster

import (
	"context"
	"fmt"
	"image"
)

// prepareCanvasStep allocates the transparent canvas at the output size and sets the scale factor
// (output width / print width).
func prepareCanvasStep() step {
	return step{Name: "prepare canvas", Run: func(_ context.Context, s *state) error {
		ps := s.doc.PrintSpace
		if ps.Width <= 0 || ps.Height <= 0 {
			return fmt.Errorf("%w: print space %dx%d", ErrInvalidOptions, ps.Width, ps.Height)
		}
		w, h := OutputSize(ps, s.opt.Width)
		if px := int64(w) * int64(h); s.opt.Limits.MaxPixels > 0 && px > s.opt.Limits.MaxPixels {
			return fmt.Errorf("%w: %dx%d is %d pixels, more than the limit of %d", ErrOutputTooLarge, w, h, px, s.opt.Limits.MaxPixels)
		}
		s.canvas = image.NewRGBA(image.Rect(0, 0, w, h))
		s.scale = float64(w) / float64(ps.Width)
		s.report.Width, s.report.Height = w, h
		return nil
	}}
}
