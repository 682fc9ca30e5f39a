package raster

import (
	"context"
	"fmt"
	"image"
	"io"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/pngenc"
)

// encodeStep writes the canvas as Encode does.
func encodeStep(w io.Writer) step {
	return step{Name: "encode png", Run: func(_ context.Context, s *state) error {
		return Encode(w, s.canvas, s.doc, s.opt)
	}}
}

// Encode writes canvas, the document rendered by Render, as Export writes it: an RGBA PNG with pHYs set
// to the document's DPI, with opt's concurrency and deflate level.
func Encode(w io.Writer, canvas *image.RGBA, doc *design.Document, opt Options) error {
	o := pngenc.Options{DPI: doc.PrintSpace.DPI, Concurrency: opt.Concurrency, Level: opt.Level}
	if err := pngenc.Encode(w, canvas, o); err != nil {
		return fmt.Errorf("encode png: %w", err)
	}
	return nil
}
