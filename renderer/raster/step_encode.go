package raster

import (
	"context"
	"fmt"
	"io"

	"github.com/pressroom/pressroom/renderer/pngenc"
)

// encodeStep writes the canvas as an RGBA PNG with pHYs set to the document's DPI.
func encodeStep(w io.Writer) step {
	return step{Name: "encode png", Run: func(_ context.Context, s *state) error {
		opt := pngenc.Options{DPI: s.doc.PrintSpace.DPI, Concurrency: s.opt.Concurrency, Level: s.opt.Level}
		if err := pngenc.Encode(w, s.canvas, opt); err != nil {
			return fmt.Errorf("encode png: %w", err)
		}
		return nil
	}}
}
