package svgraster

import (
	"math"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"

	"github.com/pressroom/pressroom/renderer/svgdoc"
)

// pathAdder feeds a path to a rasterx adder, mapping every point through m in float64 first (so a
// small viewBox loses no precision to the rasterizer's fixed point) and checking it stays within
// limit pixels of the picture.
type pathAdder struct {
	m     svgdoc.Matrix
	limit float64
	// out is set when a point fell outside the limit.
	out bool
}

func (p *pathAdder) point(x, y float64) fixed.Point26_6 {
	px, py := p.m.Apply(x, y)
	if math.IsNaN(px) || math.IsNaN(py) || math.Abs(px) > p.limit || math.Abs(py) > p.limit {
		p.out = true
		return fixed.Point26_6{}
	}
	return fixed.Point26_6{X: fixed.Int26_6(math.Round(px * 64)), Y: fixed.Int26_6(math.Round(py * 64))}
}

// add sends path to a; it answers false when a point fell outside the limit.
func (p *pathAdder) add(a rasterx.Adder, path []svgdoc.Seg) bool {
	var x, y float64
	open := false
	for _, s := range path {
		switch s.Op {
		case svgdoc.MoveTo:
			if open {
				a.Stop(false)
			}
			a.Start(p.point(s.P[0], s.P[1]))
			x, y, open = s.P[0], s.P[1], true
		case svgdoc.LineTo:
			a.Line(p.point(s.P[0], s.P[1]))
			x, y = s.P[0], s.P[1]
		case svgdoc.QuadTo:
			a.QuadBezier(p.point(s.P[0], s.P[1]), p.point(s.P[2], s.P[3]))
			x, y = s.P[2], s.P[3]
		case svgdoc.CubicTo:
			a.CubeBezier(p.point(s.P[0], s.P[1]), p.point(s.P[2], s.P[3]), p.point(s.P[4], s.P[5]))
			x, y = s.P[4], s.P[5]
		case svgdoc.ArcTo:
			for _, c := range arcToCubics(x, y, s.P) {
				a.CubeBezier(p.point(c[0], c[1]), p.point(c[2], c[3]), p.point(c[4], c[5]))
			}
			x, y = s.P[5], s.P[6]
		case svgdoc.Close:
			if open {
				a.Stop(true)
			}
			open = false
		}
		if p.out {
			return false
		}
	}
	if open {
		a.Stop(false)
	}
	return !p.out
}

// arcToCubics turns an SVG arc from (x0, y0) (arc = rx, ry, rotation in degrees, large-arc flag,
// sweep flag, x, y) into cubic Béziers of at most a quarter turn each, following the endpoint-to-
// centre conversion of the SVG specification (implementation notes, F.6.5 and F.6.6).
func arcToCubics(x0, y0 float64, arc [7]float64) [][6]float64 {
	rx, ry, phi, large, sweep, x, y := math.Abs(arc[0]), math.Abs(arc[1]), arc[2]*math.Pi/180, arc[3] != 0, arc[4] != 0, arc[5], arc[6]
	if x0 == x && y0 == y {
		return nil
	}
	if rx == 0 || ry == 0 {
		return [][6]float64{{x0, y0, x, y, x, y}}
	}
	sin, cos := math.Sincos(phi)
	dx, dy := (x0-x)/2, (y0-y)/2
	x1p, y1p := cos*dx+sin*dy, -sin*dx+cos*dy
	// Radii too small to reach are scaled up, as the specification says.
	if l := x1p*x1p/(rx*rx) + y1p*y1p/(ry*ry); l > 1 {
		rx, ry = rx*math.Sqrt(l), ry*math.Sqrt(l)
	}
	num := rx*rx*ry*ry - rx*rx*y1p*y1p - ry*ry*x1p*x1p
	den := rx*rx*y1p*y1p + ry*ry*x1p*x1p
	k := math.Sqrt(math.Max(0, num/den))
	if large == sweep {
		k = -k
	}
	cxp, cyp := k*rx*y1p/ry, -k*ry*x1p/rx
	cx, cy := cos*cxp-sin*cyp+(x0+x)/2, sin*cxp+cos*cyp+(y0+y)/2
	angle := func(ux, uy, vx, vy float64) float64 {
		return math.Atan2(ux*vy-uy*vx, ux*vx+uy*vy)
	}
	theta := angle(1, 0, (x1p-cxp)/rx, (y1p-cyp)/ry)
	delta := angle((x1p-cxp)/rx, (y1p-cyp)/ry, (-x1p-cxp)/rx, (-y1p-cyp)/ry)
	if !sweep && delta > 0 {
		delta -= 2 * math.Pi
	} else if sweep && delta < 0 {
		delta += 2 * math.Pi
	}
	n := int(math.Ceil(math.Abs(delta) / (math.Pi / 2)))
	n = max(n, 1)
	step := delta / float64(n)
	t := 4.0 / 3 * math.Tan(step/4)
	at := func(a float64) (float64, float64, float64, float64) {
		s, c := math.Sincos(a)
		// point and derivative on the ellipse, rotated
		px, py := rx*c, ry*s
		dx, dy := -rx*s, ry*c
		return cos*px - sin*py + cx, sin*px + cos*py + cy, cos*dx - sin*dy, sin*dx + cos*dy
	}
	out := make([][6]float64, 0, n)
	a := theta
	for i := range n {
		ax, ay, adx, ady := at(a)
		bx, by, bdx, bdy := at(a + step)
		if i == n-1 {
			bx, by = x, y
		}
		out = append(out, [6]float64{ax + t*adx, ay + t*ady, bx - t*bdx, by - t*bdy, bx, by})
		a += step
	}
	return out
}

// bounds is the box of a path's points (control points included), in its own coordinates.
func bounds(path []svgdoc.Seg) (minX, minY, maxX, maxY float64) {
	minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	var x, y float64
	see := func(px, py float64) {
		minX, minY, maxX, maxY = math.Min(minX, px), math.Min(minY, py), math.Max(maxX, px), math.Max(maxY, py)
	}
	for _, s := range path {
		switch s.Op {
		case svgdoc.MoveTo, svgdoc.LineTo:
			see(s.P[0], s.P[1])
			x, y = s.P[0], s.P[1]
		case svgdoc.QuadTo:
			see(s.P[0], s.P[1])
			see(s.P[2], s.P[3])
			x, y = s.P[2], s.P[3]
		case svgdoc.CubicTo:
			see(s.P[0], s.P[1])
			see(s.P[2], s.P[3])
			see(s.P[4], s.P[5])
			x, y = s.P[4], s.P[5]
		case svgdoc.ArcTo:
			for _, c := range arcToCubics(x, y, s.P) {
				see(c[0], c[1])
				see(c[2], c[3])
				see(c[4], c[5])
			}
			x, y = s.P[5], s.P[6]
		}
	}
	return minX, minY, maxX, maxY
}
