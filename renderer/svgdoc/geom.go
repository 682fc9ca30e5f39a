package svgdoc

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// Matrix is an affine transform {a, b, c, d, e, f}: x' = a·x + c·y + e, y' = b·x + d·y + f.
type Matrix [6]float64

// Identity changes nothing.
var Identity = Matrix{1, 0, 0, 1, 0, 0}

// Mul is m·n: n applied first, then m.
func (m Matrix) Mul(n Matrix) Matrix {
	return Matrix{
		m[0]*n[0] + m[2]*n[1], m[1]*n[0] + m[3]*n[1],
		m[0]*n[2] + m[2]*n[3], m[1]*n[2] + m[3]*n[3],
		m[0]*n[4] + m[2]*n[5] + m[4], m[1]*n[4] + m[3]*n[5] + m[5],
	}
}

// Apply maps a point.
func (m Matrix) Apply(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]
}

// Scale is how much m enlarges lengths on average (the square root of its determinant): what a
// stroke width is multiplied by.
func (m Matrix) Scale() float64 { return math.Sqrt(math.Abs(m[0]*m[3] - m[1]*m[2])) }

// Op is what a path segment does.
type Op byte

// Segment operations; points are absolute.
const (
	MoveTo  Op = iota // x y
	LineTo            // x y
	QuadTo            // x1 y1 x y
	CubicTo           // x1 y1 x2 y2 x y
	ArcTo             // rx ry rotation large-arc sweep x y
	Close
)

// Seg is one segment of a path, its numbers in P as Op says.
type Seg struct {
	Op Op
	P  [7]float64
}

var errPath = errors.New("path data cannot be read")

// pathScanner reads the numbers and commands of path data and point lists.
type pathScanner struct {
	s string
	i int
	// numbers counts every number read, against MaxPoints.
	numbers *int
}

func (p *pathScanner) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == ',' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *pathScanner) atNumber() bool {
	p.skipSpace()
	if p.i >= len(p.s) {
		return false
	}
	c := p.s[p.i]
	return c == '-' || c == '+' || c == '.' || '0' <= c && c <= '9'
}

func (p *pathScanner) number() (float64, error) {
	p.skipSpace()
	start := p.i
	if p.i < len(p.s) && (p.s[p.i] == '-' || p.s[p.i] == '+') {
		p.i++
	}
	digits := 0
	for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
		digits++
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
			p.i++
			digits++
		}
	}
	if digits == 0 {
		return 0, errPath
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		j := p.i + 1
		if j < len(p.s) && (p.s[j] == '-' || p.s[j] == '+') {
			j++
		}
		if j < len(p.s) && '0' <= p.s[j] && p.s[j] <= '9' {
			for j < len(p.s) && '0' <= p.s[j] && p.s[j] <= '9' {
				j++
			}
			p.i = j
		}
	}
	f, err := strconv.ParseFloat(p.s[start:p.i], 64)
	if err != nil {
		return 0, errPath
	}
	return checked(f, p.numbers)
}

// flag reads an arc flag, which may run into the next number ("a1 1 0 01 5 5").
func (p *pathScanner) flag() (float64, error) {
	p.skipSpace()
	if p.i < len(p.s) && (p.s[p.i] == '0' || p.s[p.i] == '1') {
		p.i++
		return checked(float64(p.s[p.i-1]-'0'), p.numbers)
	}
	return 0, errPath
}

var (
	errTooMany = errors.New("too many numbers")
	errBounds  = errors.New("number out of bounds")
)

// checked counts a number and refuses one out of bounds.
func checked(f float64, count *int) (float64, error) {
	*count++
	if *count > MaxPoints {
		return 0, errTooMany
	}
	if math.IsNaN(f) || math.Abs(f) > MaxNumber {
		return 0, errBounds
	}
	return f, nil
}

// parsePath reads SVG path data into absolute segments. Relative commands are made absolute, H and V
// become lines, S and T curves with their reflected control point.
func parsePath(d string, count *int) ([]Seg, error) {
	p := &pathScanner{s: d, numbers: count}
	var out []Seg
	var cmd byte
	var x, y, sx, sy, cx, cy float64 // current point, subpath start, last control point
	var last Op = Close
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return out, nil
		}
		if c := p.s[p.i]; strings.IndexByte("MmLlHhVvCcSsQqTtAaZz", c) >= 0 {
			cmd = c
			p.i++
		} else if cmd == 0 || cmd == 'Z' || cmd == 'z' || !p.atNumber() {
			return nil, errPath
		}
		rel := cmd >= 'a'
		ox, oy := 0.0, 0.0
		if rel {
			ox, oy = x, y
		}
		nums := func(n int) ([7]float64, error) {
			var v [7]float64
			for k := range n {
				f, err := p.number()
				if err != nil {
					return v, err
				}
				v[k] = f
			}
			return v, nil
		}
		var seg Seg
		switch cmd {
		case 'Z', 'z':
			out = append(out, Seg{Op: Close})
			x, y = sx, sy
			last = Close
			continue
		case 'M', 'm':
			v, err := nums(2)
			if err != nil {
				return nil, err
			}
			x, y = v[0]+ox, v[1]+oy
			sx, sy = x, y
			seg = Seg{Op: MoveTo, P: [7]float64{x, y}}
			// Pairs after a moveto are lines.
			if rel {
				cmd = 'l'
			} else {
				cmd = 'L'
			}
		case 'L', 'l':
			v, err := nums(2)
			if err != nil {
				return nil, err
			}
			x, y = v[0]+ox, v[1]+oy
			seg = Seg{Op: LineTo, P: [7]float64{x, y}}
		case 'H', 'h':
			v, err := nums(1)
			if err != nil {
				return nil, err
			}
			x = v[0] + ox
			seg = Seg{Op: LineTo, P: [7]float64{x, y}}
		case 'V', 'v':
			v, err := nums(1)
			if err != nil {
				return nil, err
			}
			y = v[0] + oy
			seg = Seg{Op: LineTo, P: [7]float64{x, y}}
		case 'C', 'c', 'S', 's':
			smooth := cmd == 'S' || cmd == 's'
			n := 6
			if smooth {
				n = 4
			}
			v, err := nums(n)
			if err != nil {
				return nil, err
			}
			var x1, y1 float64
			if smooth {
				x1, y1 = x, y
				if last == CubicTo {
					x1, y1 = 2*x-cx, 2*y-cy
				}
				v = [7]float64{x1 - ox, y1 - oy, v[0], v[1], v[2], v[3]}
			}
			seg = Seg{Op: CubicTo, P: [7]float64{v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy, v[4] + ox, v[5] + oy}}
			cx, cy = seg.P[2], seg.P[3]
			x, y = seg.P[4], seg.P[5]
		case 'Q', 'q', 'T', 't':
			smooth := cmd == 'T' || cmd == 't'
			n := 4
			if smooth {
				n = 2
			}
			v, err := nums(n)
			if err != nil {
				return nil, err
			}
			if smooth {
				x1, y1 := x, y
				if last == QuadTo {
					x1, y1 = 2*x-cx, 2*y-cy
				}
				v = [7]float64{x1 - ox, y1 - oy, v[0], v[1]}
			}
			seg = Seg{Op: QuadTo, P: [7]float64{v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy}}
			cx, cy = seg.P[0], seg.P[1]
			x, y = seg.P[2], seg.P[3]
		case 'A', 'a':
			var v [7]float64
			var err error
			for k, read := range []func() (float64, error){p.number, p.number, p.number, p.flag, p.flag, p.number, p.number} {
				if v[k], err = read(); err != nil {
					return nil, err
				}
			}
			x, y = v[5]+ox, v[6]+oy
			seg = Seg{Op: ArcTo, P: [7]float64{math.Abs(v[0]), math.Abs(v[1]), v[2], v[3], v[4], x, y}}
		}
		if len(out) == 0 && seg.Op != MoveTo {
			return nil, errPath
		}
		out = append(out, seg)
		last = seg.Op
	}
}

// parsePoints reads a polyline's or polygon's points; an odd number drops the last, as browsers do.
func parsePoints(s string, count *int) ([]float64, error) {
	p := &pathScanner{s: s, numbers: count}
	var out []float64
	for p.atNumber() {
		f, err := p.number()
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	if p.skipSpace(); p.i < len(p.s) {
		return nil, errPath
	}
	return out[:len(out)/2*2], nil
}

// parseTransform reads a transform list into one matrix.
func parseTransform(s string, count *int) (Matrix, error) {
	m := Identity
	p := &pathScanner{s: s, numbers: count}
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return m, nil
		}
		open := strings.IndexByte(p.s[p.i:], '(')
		if open < 0 {
			return m, errPath
		}
		name := strings.TrimSpace(p.s[p.i : p.i+open])
		p.i += open + 1
		var args []float64
		for p.atNumber() {
			f, err := p.number()
			if err != nil {
				return m, err
			}
			args = append(args, f)
		}
		if p.skipSpace(); p.i >= len(p.s) || p.s[p.i] != ')' {
			return m, errPath
		}
		p.i++
		t, ok := transformOf(name, args)
		if !ok {
			return m, errPath
		}
		m = m.Mul(t)
	}
}

func transformOf(name string, a []float64) (Matrix, bool) {
	switch {
	case name == "matrix" && len(a) == 6:
		return Matrix{a[0], a[1], a[2], a[3], a[4], a[5]}, true
	case name == "translate" && len(a) == 1:
		return Matrix{1, 0, 0, 1, a[0], 0}, true
	case name == "translate" && len(a) == 2:
		return Matrix{1, 0, 0, 1, a[0], a[1]}, true
	case name == "scale" && len(a) == 1:
		return Matrix{a[0], 0, 0, a[0], 0, 0}, true
	case name == "scale" && len(a) == 2:
		return Matrix{a[0], 0, 0, a[1], 0, 0}, true
	case name == "rotate" && (len(a) == 1 || len(a) == 3):
		r := a[0] * math.Pi / 180
		rot := Matrix{math.Cos(r), math.Sin(r), -math.Sin(r), math.Cos(r), 0, 0}
		if len(a) == 3 {
			return Matrix{1, 0, 0, 1, a[1], a[2]}.Mul(rot).Mul(Matrix{1, 0, 0, 1, -a[1], -a[2]}), true
		}
		return rot, true
	case name == "skewX" && len(a) == 1:
		return Matrix{1, 0, math.Tan(a[0] * math.Pi / 180), 1, 0, 0}, true
	case name == "skewY" && len(a) == 1:
		return Matrix{1, math.Tan(a[0] * math.Pi / 180), 0, 1, 0, 0}, true
	}
	return Matrix{}, false
}

// unitLengths are the CSS units in user units (px).
var unitLengths = map[string]float64{"": 1, "px": 1, "pt": 4.0 / 3, "pc": 16, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96,
	"em": 16, "ex": 8}

// length reads a length with its unit; a percentage is of ref (the viewBox's width, height or
// normalised diagonal).
func length(s string, ref float64, count *int) (float64, error) {
	s = strings.TrimSpace(s)
	end := len(s)
	for end > 0 && (s[end-1] >= 'a' && s[end-1] <= 'z' || s[end-1] == '%') {
		end--
	}
	unit := s[end:]
	f, err := strconv.ParseFloat(s[:end], 64)
	if err != nil {
		return 0, errPath
	}
	if unit == "%" {
		f = f / 100 * ref
	} else if k, ok := unitLengths[unit]; ok {
		f *= k
	} else {
		return 0, errPath
	}
	return checked(f, count)
}
