package models

import (
	"fmt"
	"math"
	"slices"
)

// Names lists the models this package makes, in the order the demo catalogue uses them.
var Names = []string{"tshirt", "mug"}

// PrintAspect is each model's print area width over height, so a design of that aspect fills the print
// mesh without stretching.
var PrintAspect = map[string]float64{"tshirt": 0.5 / 0.6, "mug": 0.405 * 2 * (70 * math.Pi / 180) / 0.7}

// Model returns the GLB bytes of the named model (one of Names).
func Model(name string) ([]byte, error) {
	switch name {
	case "tshirt":
		return encodeGLB(tshirt())
	case "mug":
		return encodeGLB(mug())
	}
	return nil, fmt.Errorf("models: unknown model %q; want one of %v", name, slices.Clone(Names))
}

// tshirtInside says whether (x, y) lies on the shirt's flat outline: torso, two sleeves, no neck hole.
func tshirtInside(x, y float64) bool {
	if x*x+(y-0.6)*(y-0.6) < 0.17*0.17 {
		return false
	}
	ax := math.Abs(x)
	if ax <= 0.45 {
		return y >= -0.7 && y <= 0.55
	}
	if ax > 0.8 {
		return false
	}
	t := (ax - 0.45) / 0.35
	return y <= 0.55-0.2*t && y >= 0.25-0.15*t
}

// tshirtPuff is the shirt's depth in front of (and behind) its middle plane: a rounded slab.
func tshirtPuff(x float64) float64 {
	return 0.09 * math.Sqrt(math.Max(0, 1-(x/0.85)*(x/0.85)))
}

func tshirt() []*mesh {
	const x0, x1, y0, y1 = -0.8, 0.8, 0.6, -0.7 // y0 is the top
	body := &mesh{name: "body", color: [4]float32{0.92, 0.92, 0.9, 1}}
	at := func(side float64) func(u, v float64) [3]float64 {
		return func(u, v float64) [3]float64 {
			x, y := x0+u*(x1-x0), y0+v*(y1-y0)
			return [3]float64{x, y, side * tshirtPuff(x)}
		}
	}
	keep := func(u, v float64) bool { return tshirtInside(x0+u*(x1-x0), y0+v*(y1-y0)) }
	body.addQuadGrid(64, 52, at(1), keep, false)
	body.addQuadGrid(64, 52, at(-1), keep, true)
	// The print area: 0.5 wide, 0.6 tall, its top 0.2 below the neck, a hair in front of the body.
	print := &mesh{name: "print", textured: true}
	print.addQuadGrid(24, 24, func(u, v float64) [3]float64 {
		x, y := -0.25+u*0.5, 0.35-v*0.6
		return [3]float64{x, y, tshirtPuff(x) + 0.004}
	}, nil, false)
	return []*mesh{body, print}
}

func mug() []*mesh {
	const r, inner, top, bottom = 0.4, 0.37, 0.45, -0.45
	body := &mesh{name: "body", color: [4]float32{0.95, 0.95, 0.95, 1}}
	wall := func(radius float64) func(u, v float64) [3]float64 {
		return func(u, v float64) [3]float64 {
			a := u * 2 * math.Pi
			return [3]float64{radius * math.Sin(a), top + v*(bottom-top), radius * math.Cos(a)}
		}
	}
	body.addQuadGrid(72, 1, wall(r), nil, false)
	body.addQuadGrid(72, 1, wall(inner), nil, true)
	body.addQuadGrid(72, 1, func(u, v float64) [3]float64 { // rim, facing up
		a, rr := u*2*math.Pi, r+v*(inner-r)
		return [3]float64{rr * math.Sin(a), top, rr * math.Cos(a)}
	}, nil, true)
	body.addQuadGrid(72, 1, func(u, v float64) [3]float64 { // bottom, facing down
		a, rr := u*2*math.Pi, r*(1-v)
		return [3]float64{rr * math.Sin(a), bottom, rr * math.Cos(a)}
	}, nil, false)
	body.addQuadGrid(24, 12, func(u, v float64) [3]float64 { // handle: half a torus on the +x side
		a := -math.Pi/2 + u*math.Pi
		b := v * 2 * math.Pi
		const cx, major, minor = r + 0.02, 0.22, 0.05
		d := major + minor*math.Cos(b)
		return [3]float64{cx + d*math.Cos(a), d * math.Sin(a) * -1, minor * math.Sin(b)}
	}, nil, false)
	// The print wraps 140 degrees of the front, 0.7 tall, a hair outside the wall.
	print := &mesh{name: "print", textured: true}
	const span = 70 * math.Pi / 180
	print.addQuadGrid(48, 8, func(u, v float64) [3]float64 {
		a := -span + u*2*span
		return [3]float64{(r + 0.004) * math.Sin(a), 0.35 - v*0.7, (r + 0.004) * math.Cos(a)}
	}, nil, false)
	return []*mesh{body, print}
}
