package mockup

import "errors"

// homography is a 3x3 projective transform, row-major: (x, y) maps to
// ((m0 x + m1 y + m2) / w, (m3 x + m4 y + m5) / w) with w = m6 x + m7 y + m8.
type homography [9]float64

// rectToQuad is the homography taking the rectangle (0,0)-(w,h) to the quad: (0,0) to q[0], (w,0) to q[1],
// (w,h) to q[2], (0,h) to q[3]. It is Heckbert's square-to-quad mapping ("Fundamentals of Texture Mapping
// and Image Warping", 1989, section 2.2.3) composed with the scaling of the rectangle to the unit square.
func rectToQuad(w, h float64, q [4]Point) homography {
	x0, y0, x1, y1, x2, y2, x3, y3 := q[0].X, q[0].Y, q[1].X, q[1].Y, q[2].X, q[2].Y, q[3].X, q[3].Y
	sx, sy := x0-x1+x2-x3, y0-y1+y2-y3
	var a, b, c, d, e, f, g, hh float64
	if sx == 0 && sy == 0 { // a parallelogram: affine
		a, b, c = x1-x0, x3-x0, x0
		d, e, f = y1-y0, y3-y0, y0
	} else {
		dx1, dx2, dy1, dy2 := x1-x2, x3-x2, y1-y2, y3-y2
		den := dx1*dy2 - dx2*dy1
		g = (sx*dy2 - dx2*sy) / den
		hh = (dx1*sy - sx*dy1) / den
		a, b, c = x1-x0+g*x1, x3-x0+hh*x3, x0
		d, e, f = y1-y0+g*y1, y3-y0+hh*y3, y0
	}
	// unit square to quad, then divide u by w and v by h
	return homography{a / w, b / h, c, d / w, e / h, f, g / w, hh / h, 1}
}

// apply maps a point.
func (m homography) apply(x, y float64) (float64, float64) {
	w := m[6]*x + m[7]*y + m[8]
	return (m[0]*x + m[1]*y + m[2]) / w, (m[3]*x + m[4]*y + m[5]) / w
}

var errSingular = errors.New("singular homography")

// inverse is the inverse transform (the adjugate over the determinant).
func (m homography) inverse() (homography, error) {
	a, b, c, d, e, f, g, h, i := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	A, B, C := e*i-f*h, -(d*i - f*g), d*h-e*g
	det := a*A + b*B + c*C
	if det == 0 {
		return homography{}, errSingular
	}
	inv := homography{
		A, -(b*i - c*h), b*f - c*e,
		B, a*i - c*g, -(a*f - c*d),
		C, -(a*h - b*g), a*e - b*d,
	}
	for k := range inv {
		inv[k] /= det
	}
	return inv, nil
}
