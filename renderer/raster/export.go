package raster

import (
	"cmp"
	"context"
	"fmt"
	"image"
	"io"
	"runtime"
	"time"

	"golang.org/x/image/font/sfnt"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/dpi"
	"github.com/pressroom/pressroom/renderer/imagelimit"
)

// step is one stage of a render. Steps run in order over one state; the context is checked before each.
type step struct {
	Name string
	Run  func(ctx context.Context, s *state) error
}

// state is what the steps of one render share.
type state struct {
	doc     *design.Document
	opt     Options
	workers int
	// scale is output pixels per print pixel.
	scale  float64
	canvas *image.RGBA
	report Report
	// placements collects the images' source sizes for the DPI report.
	placements []dpi.Placement
	fonts      map[string]*sfnt.Font // loaded fontUrl fonts by URL
	fontErrs   map[string]error      // fontUrl fonts that failed to load
}

// Render draws the document and returns the canvas (premultiplied RGBA at the output size) and the report.
func Render(ctx context.Context, doc *design.Document, opt Options) (*image.RGBA, Report, error) {
	s, err := run(ctx, doc, opt, renderSteps(doc))
	if err != nil {
		return nil, Report{}, err
	}
	return s.canvas, s.report, nil
}

// Export renders the document and writes it to w as an RGBA PNG with a pHYs chunk for the document's DPI.
// On error w may hold a partial file.
func Export(ctx context.Context, doc *design.Document, opt Options, w io.Writer) (Report, error) {
	steps := append(renderSteps(doc), encodeStep(w))
	s, err := run(ctx, doc, opt, steps)
	if err != nil {
		return Report{}, err
	}
	return s.report, nil
}

// renderSteps is the pipeline of a document: the canvas, each object in paint order, the DPI report.
func renderSteps(doc *design.Document) []step {
	steps := []step{prepareCanvasStep()}
	if doc != nil {
		for _, o := range doc.Objects {
			switch o := o.(type) {
			case *design.ImageObject:
				steps = append(steps, drawImageStep(o))
			case *design.TextObject:
				steps = append(steps, drawTextStep(o))
			}
		}
	}
	return append(steps, assessDPIStep())
}

func run(ctx context.Context, doc *design.Document, opt Options, steps []step) (*state, error) {
	if doc == nil {
		return nil, fmt.Errorf("%w: nil document", ErrInvalidOptions)
	}
	if opt.Width < 0 {
		return nil, fmt.Errorf("%w: width %d", ErrInvalidOptions, opt.Width)
	}
	if opt.Limits.MaxPixels == 0 || opt.Limits.MaxBytes == 0 {
		def := imagelimit.DefaultConfig()
		opt.Limits.MaxPixels = cmp.Or(opt.Limits.MaxPixels, def.MaxPixels)
		opt.Limits.MaxBytes = cmp.Or(opt.Limits.MaxBytes, def.MaxBytes)
	}
	if err := opt.Limits.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOptions, err)
	}
	s := &state{doc: doc, opt: opt, workers: opt.Concurrency}
	if s.workers <= 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	for _, st := range steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start := time.Now()
		if err := st.Run(ctx, s); err != nil {
			return nil, err
		}
		if opt.Observe != nil {
			opt.Observe(st.Name, time.Since(start))
		}
	}
	return s, nil
}

// open reads a source through the loader.
func (s *state) open(ctx context.Context, src string) (io.ReadCloser, error) {
	if s.opt.Loader == nil {
		return nil, ErrNoLoader
	}
	return s.opt.Loader.Open(ctx, src)
}
