package raster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"math"

	"golang.org/x/image/draw"
	"golang.org/x/image/math/f64"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/imagelimit"
)

// drawImageStep loads, scales, rotates and composites one image object, and records its source size for
// the DPI report.
func drawImageStep(o *design.ImageObject) step {
	return step{Name: "draw image " + o.ID, Run: func(ctx context.Context, s *state) error {
		rc, err := s.open(ctx, o.Src)
		if err != nil {
			return fmt.Errorf("image %s: %w", o.ID, err)
		}
		defer rc.Close()
		head := &replayable{r: rc}
		err = s.byRows(ctx, o, head)
		if !errors.Is(err, errWholeImage) && !errors.Is(err, imagelimit.ErrRowsUnsupported) {
			if err != nil {
				return fmt.Errorf("image %s: %w", o.ID, err)
			}
			return nil
		}
		// Drawn whole from the header it read, then the rest: the source is opened once.
		err = s.streamImage(o.Src, head.replay(), func(st imagelimit.Stream) error {
			b := st.Image().Bounds()
			s.placements = append(s.placements, placementOf(o, b.Dx(), b.Dy()))
			return drawImage(ctx, s.canvas, st, o, s.scale, s.workers)
		})
		if err != nil {
			return fmt.Errorf("image %s: %w", o.ID, err)
		}
		return nil
	}}
}

// byRows draws an image read from r through a window of its rows (drawUprightRows, drawRotatedRows),
// when it can; once it has begun drawing, r no longer records what it reads.
func (s *state) byRows(ctx context.Context, o *design.ImageObject, r *replayable) error {
	placed := func(w, h int) {
		r.drawing = true
		s.placements = append(s.placements, placementOf(o, w, h))
	}
	var err error
	if math.Mod(o.Rotation, 360) == 0 {
		err = drawUprightRows(ctx, s.canvas, r, s.opt.Limits, o, s.scale, s.workers, placed)
	} else {
		err = drawRotatedRows(ctx, s.canvas, r, s.opt.Limits, o, s.scale, placed)
	}
	switch {
	case err == nil, errors.Is(err, errWholeImage), errors.Is(err, imagelimit.ErrRowsUnsupported), ctx.Err() != nil:
		return err
	}
	return fmt.Errorf("decode %s: %w", o.Src, err)
}

// replayable records what is read through it until drawing is set, so that after byRows refused an
// image, having read only its header, the decoder drawing it whole reads it again from
// the start (replay) without opening the source a second time.
type replayable struct {
	r       io.Reader
	head    bytes.Buffer
	drawing bool
}

func (p *replayable) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if !p.drawing {
		p.head.Write(b[:n])
	}
	return n, err
}

// replay is the whole input: what was recorded, then the rest.
func (p *replayable) replay() io.Reader { return io.MultiReader(&p.head, p.r) }

// drawImage composites the image of st placed as o (print pixels) onto the canvas at the given scale. An
// upright image is resampled while it decodes, each output row as soon as its source rows are final.
func drawImage(ctx context.Context, canvas *image.RGBA, st imagelimit.Stream, o *design.ImageObject, scale float64, workers int) error {
	box := fbox{o.X * scale, o.Y * scale, o.Width * scale, o.Height * scale}
	rot := math.Mod(o.Rotation, 360)
	img := st.Image()
	if _, paletted := img.(*image.Paletted); rot == 0 && !paletted {
		return resampleOverRows(ctx, canvas, img, st.WaitRows, box, catmullRom, workers)
	}
	// Rotated images are transformed whole, and a palette may still grow while it decodes.
	if err := st.Wait(); err != nil {
		return err
	}
	if rot == 0 {
		return resampleOver(ctx, canvas, img, box, catmullRom, workers)
	}
	// Rotated: scale first (only when shrinking, so the rotation's kernel works near scale 1 and the
	// temporary is never larger than the source), then transform about the pivot (x, y).
	src := img
	sb := img.Bounds()
	if box.w < float64(sb.Dx()) || box.h < float64(sb.Dy()) {
		tw, th := max(1, int(math.Ceil(box.w))), max(1, int(math.Ceil(box.h)))
		tmp := image.NewRGBA(image.Rect(0, 0, tw, th))
		if err := resampleOver(ctx, tmp, img, fbox{0, 0, float64(tw), float64(th)}, catmullRom, workers); err != nil {
			return err
		}
		src, sb = tmp, tmp.Bounds()
	}
	kx, ky := box.w/float64(sb.Dx()), box.h/float64(sb.Dy())
	sin, cos := math.Sincos(rot * math.Pi / 180)
	// source pixel (sx, sy) -> canvas: rotate the scaled box about its top-left corner, then move it there.
	s2d := f64.Aff3{
		cos * kx, -sin * ky, box.x - (cos*kx*float64(sb.Min.X) - sin*ky*float64(sb.Min.Y)),
		sin * kx, cos * ky, box.y - (sin*kx*float64(sb.Min.X) + cos*ky*float64(sb.Min.Y)),
	}
	draw.CatmullRom.Transform(canvas, s2d, src, sb, draw.Over, nil)
	return ctx.Err()
}
