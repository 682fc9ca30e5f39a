package models

import (
	"fmt"
	"math"
	"slices"
)

// Names lists the models this package makes, in the order the demo catalogue uses them: the keys of
// products.
var Names = []string{"tshirt", "hoodie", "mug", "poster"}

// product is one model: its meshes, its print area's aspect (PrintAspect) and the direction it is
// best seen from (from the model towards the camera; zero leaves it to the 3D page: in front, a little
// above, which suits things that stand on a table or hang on a body).
type product struct {
	meshes func() []*mesh
	aspect float64
	view   [3]float64
}

// products are the models by name. Each print aspect matches its demo product's print space: 4500x5400
// on the shirts and the hoodie's front, 2700x1050 around the mug, 5400x7200 on the poster.
var products = map[string]product{
	"tshirt": {meshes: tshirt, aspect: 0.5 / 0.6},
	"hoodie": {meshes: hoodie, aspect: hoodiePrintW / hoodiePrintH},
	"mug":    {meshes: mug, aspect: mugPrintRadius * 2 * mugPrintSpan / mugPrintH},
	// A framed poster hangs at eye level: seen from a little to the side, not from above, so it is not
	// drawn as a trapezoid, and the frame's depth shows.
	"poster": {meshes: poster, aspect: posterW / posterH, view: [3]float64{0.32, 0.02, 1}},
}

// PrintAspect is each model's print area width over height, so a design of that aspect fills the print
// mesh without stretching.
var PrintAspect = printAspects()

func printAspects() map[string]float64 {
	m := make(map[string]float64, len(products))
	for name, p := range products {
		m[name] = p.aspect
	}
	return m
}

// Model returns the GLB bytes of the named model (one of Names).
func Model(name string) ([]byte, error) {
	p, ok := products[name]
	if !ok {
		return nil, fmt.Errorf("models: unknown model %q; want one of %v", name, slices.Clone(Names))
	}
	return encodeGLB(p.meshes(), p.view)
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
	shirt := newGarment(x0, y0, x1-x0, y1-y0, 72, 58, tshirtInside, tshirtPuff, 0.07)
	shirt.addTo(body)
	// The print area: 0.5 wide, 0.6 tall, its top 0.2 below the neck, a hair in front of the body.
	print := &mesh{name: "print", textured: true}
	print.addQuadGrid(24, 24, func(u, v float64) [3]float64 {
		x, y := -0.25+u*0.5, 0.35-v*0.6
		return [3]float64{x, y, shirt.height(x, y) + 0.004}
	}, nil, false)
	return []*mesh{body, print}
}

// The mug's print wraps 160 degrees of the front, a hair outside the wall, as tall as the
// 2700x1050 wrap print space makes it.
const (
	mugPrintRadius = 0.404
	mugPrintSpan   = 80 * math.Pi / 180 // half the wrap's angle
	mugPrintH      = mugPrintRadius * 2 * mugPrintSpan * 1050 / 2700
)

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
	print := &mesh{name: "print", textured: true}
	print.addQuadGrid(48, 8, func(u, v float64) [3]float64 {
		a := -mugPrintSpan + u*2*mugPrintSpan
		return [3]float64{mugPrintRadius * math.Sin(a), mugPrintH/2 - v*mugPrintH, mugPrintRadius * math.Cos(a)}
	}, nil, false)
	return []*mesh{body, print}
}

// hoodieInside says whether (x, y) lies on the hoodie's flat outline: a longer torso than the shirt's,
// no neck hole, and long sleeves hanging from sloping shoulders down to the hem, a little apart from
// the body below the armpit.
func hoodieInside(x, y float64) bool {
	if x*x+(y-0.6)*(y-0.6) < 0.17*0.17 || y < -0.85 {
		return false
	}
	ax := math.Abs(x)
	if ax <= 0.47 {
		return y <= 0.55
	}
	if y > 0.55-0.35*(ax-0.47)/0.3 { // above the shoulder's slope
		return false
	}
	spread := 0.1 * math.Max(0, 0.3-y) / 1.15 // below the armpit the sleeve leans out towards the cuff
	return ax >= 0.47+spread && ax <= 0.77+spread/2
}

// hoodiePuff is the hoodie's depth in front of (and behind) its middle plane: a thicker slab than the
// shirt's.
func hoodiePuff(x float64) float64 {
	return 0.11 * math.Sqrt(math.Max(0, 1-(x/0.95)*(x/0.95)))
}

// The hoodie's print area on the chest: 4500x5400 like its front print space.
const hoodiePrintW, hoodiePrintH = 0.45, 0.54

func hoodie() []*mesh {
	const x0, x1, y0, y1 = -0.85, 0.85, 0.6, -0.85 // y0 is the top
	body := &mesh{name: "body", color: [4]float32{0.55, 0.57, 0.6, 1}}
	jumper := newGarment(x0, y0, x1-x0, y1-y0, 72, 62, hoodieInside, hoodiePuff, 0.07)
	jumper.addTo(body)
	// The hood lies behind the neck, a rounded shell rising above the shoulders: its inside faces the
	// viewer through the neck hole, its outside bulges backwards.
	const hx, hy, hcy = 0.26, 0.3, 0.62
	hood := func(inside bool) func(u, v float64) [3]float64 {
		return func(u, v float64) [3]float64 {
			a, rr := u*2*math.Pi, 1-v
			x, y := hx*rr*math.Sin(a), hcy+hy*rr*math.Cos(a)
			dome := math.Sqrt(math.Max(0, 1-rr*rr))
			if inside {
				return [3]float64{x, y, -0.02 - 0.08*dome}
			}
			return [3]float64{x, y, -0.02 - 0.2*dome}
		}
	}
	body.addQuadGrid(48, 8, hood(true), nil, false)
	body.addQuadGrid(48, 8, hood(false), nil, true)
	// The print area: its top 0.1 below the neck hole, a hair in front of the body.
	print := &mesh{name: "print", textured: true}
	print.addQuadGrid(24, 24, func(u, v float64) [3]float64 {
		x, y := -hoodiePrintW/2+u*hoodiePrintW, 0.33-v*hoodiePrintH
		return [3]float64{x, y, jumper.height(x, y) + 0.004}
	}, nil, false)
	return []*mesh{body, print}
}

// The poster's print plane: 5400x7200 like its print space, inside a frame posterFrame wide.
const posterW, posterH, posterFrame = 0.9, 1.2, 0.06

func poster() []*mesh {
	// The frame: four bars around the print and a backing board behind it, all black. It is not the
	// product's body: the poster's colour (its paper) does not tint it.
	frame := &mesh{name: "frame", color: [4]float32{0.05, 0.05, 0.05, 1}}
	const w, h, f = posterW / 2, posterH / 2, posterFrame
	frame.addBox([3]float64{-w - f, h, -0.03}, [3]float64{w + f, h + f, 0.03})   // top
	frame.addBox([3]float64{-w - f, -h - f, -0.03}, [3]float64{w + f, -h, 0.03}) // bottom
	frame.addBox([3]float64{-w - f, -h, -0.03}, [3]float64{-w, h, 0.03})         // left
	frame.addBox([3]float64{w, -h, -0.03}, [3]float64{w + f, h, 0.03})           // right
	frame.addBox([3]float64{-w, -h, -0.03}, [3]float64{w, h, -0.01})             // backing board
	// The print: a flat plane hanging straight, a hair in front of the backing board.
	print := &mesh{name: "print", textured: true}
	print.addQuadGrid(1, 1, func(u, v float64) [3]float64 {
		return [3]float64{-w + u*posterW, h - v*posterH, -0.008}
	}, nil, false)
	return []*mesh{frame, print}
}
