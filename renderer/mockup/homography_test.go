package mockup

import (
	"math"
	"testing"
)

func TestRectToQuadMapsCornersExactly(t *testing.T) {
	tests := []struct {
		name string
		w, h float64
		quad [4]Point
	}{
		{"axis-aligned rectangle", 1000, 1200, [4]Point{{700, 520}, {1300, 520}, {1300, 1240}, {700, 1240}}},
		{"parallelogram (affine)", 100, 100, [4]Point{{10, 10}, {110, 30}, {130, 130}, {30, 110}}},
		{"mug perspective", 1000, 1200, [4]Point{{580, 660}, {1280, 684}, {1280, 1376}, {580, 1400}}},
		{"poster perspective", 4500, 5400, [4]Point{{600, 280}, {1400, 340}, {1400, 1660}, {600, 1720}}},
		{"counter-clockwise", 50, 80, [4]Point{{10, 90}, {90, 80}, {80, 10}, {5, 5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := rectToQuad(tt.w, tt.h, tt.quad)
			inv, err := h.inverse()
			if err != nil {
				t.Fatal(err)
			}
			corners := [4][2]float64{{0, 0}, {tt.w, 0}, {tt.w, tt.h}, {0, tt.h}}
			for i, c := range corners {
				x, y := h.apply(c[0], c[1])
				if math.Abs(x-tt.quad[i].X) > 1e-9 || math.Abs(y-tt.quad[i].Y) > 1e-9 {
					t.Errorf("corner %d (%g, %g) maps to (%.12g, %.12g), want (%g, %g)", i, c[0], c[1], x, y, tt.quad[i].X, tt.quad[i].Y)
				}
				u, v := inv.apply(tt.quad[i].X, tt.quad[i].Y)
				if math.Abs(u-c[0]) > 1e-6 || math.Abs(v-c[1]) > 1e-6 {
					t.Errorf("inverse of corner %d gives (%.9g, %.9g), want (%g, %g)", i, u, v, c[0], c[1])
				}
			}
			// the centre of the rectangle goes to the quad's diagonal intersection (projective invariant)
			x, y := h.apply(tt.w/2, tt.h/2)
			px, py := diagonalIntersection(tt.quad)
			if math.Abs(x-px) > 1e-6 || math.Abs(y-py) > 1e-6 {
				t.Errorf("centre maps to (%g, %g), want the diagonals' intersection (%g, %g)", x, y, px, py)
			}
		})
	}
}

func diagonalIntersection(q [4]Point) (float64, float64) {
	// q0 + s (q2 - q0) = q1 + r (q3 - q1)
	ax, ay := q[2].X-q[0].X, q[2].Y-q[0].Y
	bx, by := q[3].X-q[1].X, q[3].Y-q[1].Y
	cx, cy := q[1].X-q[0].X, q[1].Y-q[0].Y
	s := (cx*by - cy*bx) / (ax*by - ay*bx)
	return q[0].X + s*ax, q[0].Y + s*ay
}

func TestInverseOfSingular(t *testing.T) {
	if _, err := (homography{}).inverse(); err == nil {
		t.Error("the zero matrix inverted")
	}
}
