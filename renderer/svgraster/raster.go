package svgraster

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"

	"github.com/pressroom/pressroom/renderer/membudget"
	"github.com/pressroom/pressroom/renderer/svgdoc"
)

// Limits of a drawing.
const (
	// WorkLimit is how many times over its shapes may cover the picture: more is a file made to
	// keep the renderer busy, or one to simplify.
	WorkLimit = 64
	// reach is how far outside the picture, in pictures, a shape's points may lie.
	reach = 8
	// MaxSide bounds the long side asked for.
	MaxSide = 20_000
)

// The kinds of refusal Rasterize answers (as *svgdoc.Refusal, whose message the seller reads).
var (
	ErrOutside     = errors.New("the SVG's shapes reach far outside the picture")
	ErrTooMuchWork = errors.New("the SVG is too complex to draw")
	ErrNotDrawn    = errors.New("the SVG could not be drawn")
)

// Size is the picture's size for a long side of longSide pixels, the short side in proportion (at
// least 1).
func Size(doc *svgdoc.Doc, longSide int) (int, int) {
	if doc.Width >= doc.Height {
		return longSide, max(1, int(math.Round(float64(longSide)*doc.Height/doc.Width)))
	}
	return max(1, int(math.Round(float64(longSide)*doc.Width/doc.Height))), longSide
}

// Rasterize draws doc with its longer side longSide pixels long, on a transparent background. The
// pixels (and the rasterizer's buffer of the same size) are taken from the renderer's memory budget
// that ctx carries.
func Rasterize(ctx context.Context, doc *svgdoc.Doc, longSide int) (img *image.RGBA, err error) {
	if longSide < 1 || longSide > MaxSide {
		return nil, fmt.Errorf("svgraster: long side %d, want 1 to %d", longSide, MaxSide)
	}
	w, h := Size(doc, longSide)
	release, err := membudget.Acquire(ctx, 2*membudget.RGBA(w, h))
	if err != nil {
		return nil, err
	}
	defer release()
	defer func() {
		if p := recover(); p != nil {
			img, err = nil, svgdoc.Refuse(ErrNotDrawn, "The SVG could not be drawn.")
		}
	}()
	img = image.NewRGBA(image.Rect(0, 0, w, h))
	sc := newScanner(img, WorkLimit*int64(w)*int64(h))
	filler := rasterx.NewFiller(w, h, sc)
	dasher := rasterx.NewDasher(w, h, sc)
	view := svgdoc.Matrix{float64(w) / doc.Width, 0, 0, float64(h) / doc.Height, 0, 0}.
		Mul(svgdoc.Matrix{1, 0, 0, 1, -doc.MinX, -doc.MinY})
	limit := float64(reach * max(w, h))
	for i := range doc.Items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		it := &doc.Items[i]
		full := view.Mul(it.Transform)
		adder := &pathAdder{m: full, limit: limit}
		if !it.Fill.None {
			sc.evenOdd = it.EvenOdd
			filler.Clear()
			if !adder.add(filler, it.Path) {
				return nil, outside()
			}
			if paint(sc, it.Fill, full, it.Path, img.Rect) {
				filler.Draw()
			}
		}
		if !it.Stroke.None {
			scale := full.Scale()
			width := it.StrokeWidth * scale
			if width > limit {
				return nil, outside()
			}
			dash := make([]float64, len(it.Dash))
			for k, d := range it.Dash {
				dash[k] = d * scale
			}
			sc.evenOdd = false
			dasher.SetStroke(fixed.Int26_6(math.Round(width*64)), fixed.Int26_6(math.Round(it.MiterLimit*64)),
				caps[it.LineCap], nil, rasterx.FlatGap, joins[it.LineJoin], dash, it.DashOffset*scale)
			dasher.Clear()
			if !adder.add(dasher, it.Path) {
				return nil, outside()
			}
			if paint(sc, it.Stroke, full, it.Path, img.Rect) {
				dasher.Draw()
			}
		}
		if sc.over() {
			return nil, svgdoc.Refuse(ErrTooMuchWork, "The SVG is too complex to draw at print size: its shapes cover the picture "+
				"more than %d times over. Simplify it, or upload it as a PNG.", WorkLimit)
		}
	}
	return img, nil
}

func outside() error {
	return svgdoc.Refuse(ErrOutside, "The SVG's shapes reach far outside its picture (more than %d times its size away): "+
		"check its viewBox and transforms.", reach)
}

var caps = map[string]rasterx.CapFunc{"butt": rasterx.ButtCap, "round": rasterx.RoundCap, "square": rasterx.SquareCap}

var joins = map[string]rasterx.JoinMode{"miter": rasterx.Miter, "round": rasterx.Round, "bevel": rasterx.Bevel}

// paint sets the scanner's paint for p; false when it paints nothing.
func paint(sc *scanner, p svgdoc.Paint, full svgdoc.Matrix, path []svgdoc.Seg, rect image.Rectangle) bool {
	if p.Gradient == nil {
		sc.SetColor(color.NRGBA{p.Color.R, p.Color.G, p.Color.B, uint8(math.Round(p.Opacity * 255))})
		return true
	}
	x0, y0, x1, y1 := bounds(path)
	g := newGradientImage(p.Gradient, full, [4]float64{x0, y0, x1, y1}, p.Opacity, rect)
	if g == nil {
		return false
	}
	sc.SetColor(g)
	return true
}
