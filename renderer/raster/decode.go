package raster

import (
	"context"
	"fmt"
	"image"
	"io"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/dpi"
	"github.com/pressroom/pressroom/renderer/imagelimit"
)

// loadImage opens a source and decodes it within the limits (header checked first).
func (s *state) loadImage(ctx context.Context, src string) (image.Image, error) {
	rc, err := s.open(ctx, src)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	img, _, err := imagelimit.Decode(rc, s.opt.Limits)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", src, err)
	}
	return img, nil
}

// streamImage starts decoding the source src read from r within the limits (header checked first) and calls
// use with the stream while it decodes, so use can work on the top rows while the rest is decoded (a PNG;
// other formats arrive whole). The source is fully checked before streamImage returns nil: an error anywhere
// in the file fails it, even when use has already drawn the rows before the damage.
func (s *state) streamImage(src string, r io.Reader, use func(imagelimit.Stream) error) error {
	st, _, err := imagelimit.DecodeStream(r, s.opt.Limits)
	if err != nil {
		return fmt.Errorf("decode %s: %w", src, err)
	}
	defer st.Close()
	named := namedStream{st, src}
	if err := use(named); err != nil {
		return err
	}
	return named.Wait()
}

// namedStream says which source failed, wherever its decoding error surfaces.
type namedStream struct {
	imagelimit.Stream
	src string
}

func (n namedStream) WaitRows(rows int) error { return n.wrap(n.Stream.WaitRows(rows)) }
func (n namedStream) Wait() error             { return n.wrap(n.Stream.Wait()) }

func (n namedStream) wrap(err error) error {
	if err != nil {
		return fmt.Errorf("decode %s: %w", n.src, err)
	}
	return nil
}

// AssessDPI rates the document's images by reading only their headers: the report Export includes, without
// rendering. The command line's dpi subcommand prints it.
func AssessDPI(ctx context.Context, doc *design.Document, loader Loader, limits imagelimit.Config) (dpi.Report, error) {
	var ps []dpi.Placement
	for _, o := range doc.Objects {
		im, ok := o.(*design.ImageObject)
		if !ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return dpi.Report{}, err
		}
		if loader == nil {
			return dpi.Report{}, ErrNoLoader
		}
		cfg, err := func() (image.Config, error) {
			rc, err := loader.Open(ctx, im.Src)
			if err != nil {
				return image.Config{}, err
			}
			defer rc.Close()
			cfg, _, err := imagelimit.DecodeConfig(rc, limits)
			return cfg, err
		}()
		if err != nil {
			return dpi.Report{}, fmt.Errorf("image %s: %s: %w", im.ID, im.Src, err)
		}
		ps = append(ps, placementOf(im, cfg.Width, cfg.Height))
	}
	return dpi.Assess(ps, doc.PrintSpace.DPI, doc.PrintSpace.MinDPI), nil
}

func placementOf(o *design.ImageObject, w, h int) dpi.Placement {
	return dpi.Placement{ID: o.ID, SourceWidth: w, SourceHeight: h, PlacedWidth: o.Width, PlacedHeight: o.Height}
}
