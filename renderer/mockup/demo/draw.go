package demo

import (
	"image"
	"math"
)

// A product is drawn in "units": the photo is 1000x1000 units whatever its pixel size, so shapes are
// written once and drawn at any resolution.
const units = 1000.0

// sample is what a product says about one point of its photo.
type sample struct {
	base              [3]float64 // photo colour, 0..1, the product in its neutral colour
	tint, mask, shade float64    // 0..1
	dispX, dispY      float64    // displacement, -1..1 of the template's displacement scale
}

// maps are a template's images.
type maps struct {
	base         *image.RGBA
	tint, mask   *image.Gray
	shadow       *image.Gray
	displacement *image.RGBA
}

// draw evaluates fn at every pixel centre of a side x side photo; px is the size of a pixel in units,
// for anti-aliasing.
func draw(side int, fn func(x, y, px float64) sample) maps {
	r := image.Rect(0, 0, side, side)
	m := maps{base: image.NewRGBA(r), tint: image.NewGray(r), mask: image.NewGray(r), shadow: image.NewGray(r),
		displacement: image.NewRGBA(r)}
	px := units / float64(side)
	for j := range side {
		for i := range side {
			s := fn((float64(i)+0.5)*px, (float64(j)+0.5)*px, px)
			o := j*m.base.Stride + 4*i
			m.base.Pix[o], m.base.Pix[o+1], m.base.Pix[o+2], m.base.Pix[o+3] = u8(s.base[0]), u8(s.base[1]), u8(s.base[2]), 255
			g := j*side + i
			m.tint.Pix[g], m.mask.Pix[g], m.shadow.Pix[g] = u8(s.tint), u8(s.mask), u8(s.shade)
			m.displacement.Pix[o] = uint8(math.Round(128 + 127*clamp(s.dispX, -1, 1)))
			m.displacement.Pix[o+1] = uint8(math.Round(128 + 127*clamp(s.dispY, -1, 1)))
			m.displacement.Pix[o+2], m.displacement.Pix[o+3] = 128, 255
		}
	}
	return m
}

func u8(v float64) uint8 { return uint8(math.Round(255 * clamp(v, 0, 1))) }

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// coverage turns a signed distance (units, negative inside) into an anti-aliased 0..1 coverage.
func coverage(d, px float64) float64 { return clamp(0.5-d/px, 0, 1) }

func mix(a, b, t float64) float64 { return a + (b-a)*t }

type pt struct{ x, y float64 }

// polygonSD is the signed distance from (x, y) to a simple polygon: negative inside.
func polygonSD(poly []pt, x, y float64) float64 {
	d := math.Inf(1)
	inside := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[j], poly[i]
		ex, ey := b.x-a.x, b.y-a.y
		wx, wy := x-a.x, y-a.y
		t := clamp((wx*ex+wy*ey)/(ex*ex+ey*ey), 0, 1)
		dx, dy := wx-ex*t, wy-ey*t
		d = math.Min(d, dx*dx+dy*dy)
		if (a.y > y) != (b.y > y) && x < a.x+(y-a.y)*(b.x-a.x)/(b.y-a.y) {
			inside = !inside
		}
	}
	if inside {
		return -math.Sqrt(d)
	}
	return math.Sqrt(d)
}

// ellipseSD approximates the signed distance to an ellipse centred at (cx, cy) with radii rx, ry.
func ellipseSD(x, y, cx, cy, rx, ry float64) float64 {
	return (math.Hypot((x-cx)/rx, (y-cy)/ry) - 1) * math.Min(rx, ry)
}

// studio is the backdrop: a light grey sweep, darker towards the floor and the corners.
func studio(x, y float64) [3]float64 {
	v := 0.94 - 0.07*y/units - 0.05*math.Hypot(x-500, y-450)/700
	return [3]float64{v, v, v * 1.01}
}

// dropShadow darkens the backdrop near a shape (d: its signed distance), offset down-right by the caller.
func dropShadow(d float64) float64 { return 1 - 0.22*math.Exp(-math.Max(d, 0)/18) }

// grey scales a colour.
func grey(v float64) [3]float64 { return [3]float64{v, v, v} }

func scale(c [3]float64, f float64) [3]float64 { return [3]float64{c[0] * f, c[1] * f, c[2] * f} }

func blend(a, b [3]float64, t float64) [3]float64 {
	return [3]float64{mix(a[0], b[0], t), mix(a[1], b[1], t), mix(a[2], b[2], t)}
}

// folds is a fabric height field: soft diagonal folds from the armpits and ripples along the hem. Its
// gradient drives the displacement, its value the shading.
func folds(x, y float64) float64 {
	h := 0.0
	for _, f := range []struct{ cx, cy, ax, ay, freq, amp, r float64 }{
		{330, 430, 0.6, 0.8, 26, 0.9, 120}, // left armpit, folds running down and in
		{670, 430, -0.6, 0.8, 26, 0.9, 120},
		{500, 600, 0.25, 1, 45, 0.7, 240}, // soft waves across the chest and belly
		{500, 860, 1, 0.05, 22, 0.5, 140}, // hem ripples
	} {
		env := math.Exp(-((x-f.cx)*(x-f.cx) + (y-f.cy)*(y-f.cy)) / (2 * f.r * f.r))
		h += f.amp * env * math.Sin((x*f.ax+y*f.ay)/f.freq*2*math.Pi/6)
	}
	return h
}

// fabric is a garment's shading and displacement at a point inside it: folds, darkening near the
// outline (d, the signed distance to it), and the light falling from the top left.
func fabric(x, y, d float64) (shade, dispX, dispY float64) {
	const e = 1.5
	h := folds(x, y)
	gx := (folds(x+e, y) - folds(x-e, y)) / (2 * e)
	gy := (folds(x, y+e) - folds(x, y-e)) / (2 * e)
	light := 1 - 0.06*(x+y)/units
	edge := 1 - 0.25*math.Exp(math.Min(d, 0)/14)
	shade = clamp(light*edge*(0.9+0.1*h), 0, 1)
	return shade, -gx * 4, -gy * 4
}
