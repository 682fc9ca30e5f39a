package svgraster

import (
	"image"
	"image/color"
	"math"

	"github.com/pressroom/pressroom/renderer/svgdoc"
)

// gradientImage paints a gradient: the colour at each pixel, through the inverse of the matrix that
// maps the gradient's space onto the picture.
type gradientImage struct {
	g       *svgdoc.Gradient
	inv     svgdoc.Matrix
	opacity float64
	rect    image.Rectangle
	// focus and centre of a radial gradient, the focus kept inside the circle as SVG says
	fx, fy float64
}

// newGradientImage answers the paint of g on a shape drawn through full, whose own box is box; nil
// when nothing is painted (a bounding box with no width or height, a matrix that cannot be inverted).
func newGradientImage(g *svgdoc.Gradient, full svgdoc.Matrix, box [4]float64, opacity float64, rect image.Rectangle) image.Image {
	m := full
	if !g.UserSpace {
		w, h := box[2]-box[0], box[3]-box[1]
		if w <= 0 || h <= 0 {
			return nil
		}
		m = m.Mul(svgdoc.Matrix{w, 0, 0, h, box[0], box[1]})
	}
	m = m.Mul(g.Transform)
	inv, ok := invert(m)
	if !ok || len(g.Stops) == 0 {
		return nil
	}
	gi := &gradientImage{g: g, inv: inv, opacity: opacity, rect: rect, fx: g.FX, fy: g.FY}
	if g.Radial {
		if dx, dy := g.FX-g.CX, g.FY-g.CY; math.Hypot(dx, dy) > g.R*0.999 {
			k := g.R * 0.999 / math.Hypot(dx, dy)
			gi.fx, gi.fy = g.CX+dx*k, g.CY+dy*k
		}
	}
	return gi
}

func invert(m svgdoc.Matrix) (svgdoc.Matrix, bool) {
	det := m[0]*m[3] - m[1]*m[2]
	if math.Abs(det) < 1e-12 || math.IsNaN(det) {
		return svgdoc.Matrix{}, false
	}
	return svgdoc.Matrix{
		m[3] / det, -m[1] / det, -m[2] / det, m[0] / det,
		(m[2]*m[5] - m[3]*m[4]) / det, (m[1]*m[4] - m[0]*m[5]) / det,
	}, true
}

func (gi *gradientImage) ColorModel() color.Model { return color.RGBAModel }
func (gi *gradientImage) Bounds() image.Rectangle { return gi.rect }

func (gi *gradientImage) At(x, y int) color.Color { return gi.RGBAAt(x, y) }

// RGBAAt is the premultiplied colour at a pixel.
func (gi *gradientImage) RGBAAt(x, y int) color.RGBA {
	px, py := gi.inv.Apply(float64(x)+0.5, float64(y)+0.5)
	g := gi.g
	var t float64
	if g.Radial {
		t = radialT(px, py, gi.fx, gi.fy, g.CX, g.CY, g.R)
	} else {
		dx, dy := g.X2-g.X1, g.Y2-g.Y1
		if l := dx*dx + dy*dy; l > 0 {
			t = ((px-g.X1)*dx + (py-g.Y1)*dy) / l
		}
	}
	return gi.colorAt(spread(t, g.Spread))
}

// radialT is where p lies between the focus (0) and the circle (1): the t whose circle, its centre
// moved from the focus towards the centre and its radius grown from 0 to r, passes through p.
func radialT(px, py, fx, fy, cx, cy, r float64) float64 {
	dx, dy := cx-fx, cy-fy
	qx, qy := px-fx, py-fy
	a := dx*dx + dy*dy - r*r
	b := qx*dx + qy*dy
	c := qx*qx + qy*qy
	if math.Abs(a) < 1e-12 {
		if b == 0 {
			return 0
		}
		return c / (2 * b)
	}
	disc := b*b - a*c
	if disc < 0 {
		return 1
	}
	return (b - math.Sqrt(disc)) / a
}

func spread(t float64, how string) float64 {
	switch how {
	case "repeat":
		return t - math.Floor(t)
	case "reflect":
		t = math.Mod(math.Abs(t), 2)
		if t > 1 {
			t = 2 - t
		}
		return t
	}
	return math.Max(0, math.Min(1, t))
}

// colorAt interpolates the stops at t, colour and alpha apart as browsers do, and answers the colour
// premultiplied, with the paint's opacity.
func (gi *gradientImage) colorAt(t float64) color.RGBA {
	stops := gi.g.Stops
	a, b := stops[0], stops[len(stops)-1]
	f := 0.0
	switch {
	case t <= a.Offset:
		b = a
	case t >= b.Offset:
		a = b
	default:
		for i := 1; i < len(stops); i++ {
			if t <= stops[i].Offset {
				a, b = stops[i-1], stops[i]
				break
			}
		}
		if span := b.Offset - a.Offset; span > 0 {
			f = (t - a.Offset) / span
		}
	}
	mix := func(x, y uint8) float64 { return float64(x) + (float64(y)-float64(x))*f }
	alpha := mix(a.Color.A, b.Color.A) / 255 * gi.opacity
	pre := func(x, y uint8) uint8 { return uint8(math.Round(mix(x, y) * alpha)) }
	return color.RGBA{pre(a.Color.R, b.Color.R), pre(a.Color.G, b.Color.G), pre(a.Color.B, b.Color.B), uint8(math.Round(alpha * 255))}
}
