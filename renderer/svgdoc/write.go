package svgdoc

import (
	"bytes"
	"image/color"
	"strconv"
)

// write makes the clean file of a doc: its gradients and one path per item, with explicit paint,
// every number written plainly. Parse reads it back to the same doc.
func write(d *Doc) []byte {
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="`)
	b.WriteString(nums(d.MinX, d.MinY, d.Width, d.Height))
	b.WriteString(`" width="` + fnum(d.Width) + `" height="` + fnum(d.Height) + `">` + "\n")
	if len(d.Gradients) > 0 {
		b.WriteString("<defs>\n")
		for _, g := range d.Gradients {
			writeGradient(&b, g)
		}
		b.WriteString("</defs>\n")
	}
	for _, it := range d.Items {
		writeItem(&b, it)
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func writeGradient(b *bytes.Buffer, g *Gradient) {
	units := "objectBoundingBox"
	if g.UserSpace {
		units = "userSpaceOnUse"
	}
	if g.Radial {
		b.WriteString(`<radialGradient id="` + g.ID + `" cx="` + fnum(g.CX) + `" cy="` + fnum(g.CY) + `" r="` + fnum(g.R) +
			`" fx="` + fnum(g.FX) + `" fy="` + fnum(g.FY) + `"`)
	} else {
		b.WriteString(`<linearGradient id="` + g.ID + `" x1="` + fnum(g.X1) + `" y1="` + fnum(g.Y1) + `" x2="` + fnum(g.X2) +
			`" y2="` + fnum(g.Y2) + `"`)
	}
	b.WriteString(` gradientUnits="` + units + `" spreadMethod="` + g.Spread + `"`)
	if g.Transform != Identity {
		b.WriteString(` gradientTransform="matrix(` + nums(g.Transform[:]...) + `)"`)
	}
	b.WriteString(">\n")
	for _, s := range g.Stops {
		b.WriteString(`<stop offset="` + fnum(s.Offset) + `" stop-color="` + hexOf(s.Color) + `" stop-opacity="` +
			fnum(round(float64(s.Color.A)/255)) + `"/>` + "\n")
	}
	if g.Radial {
		b.WriteString("</radialGradient>\n")
	} else {
		b.WriteString("</linearGradient>\n")
	}
}

func writeItem(b *bytes.Buffer, it Item) {
	b.WriteString(`<path d="`)
	writePath(b, it.Path)
	b.WriteString(`"`)
	if it.Transform != Identity {
		b.WriteString(` transform="matrix(` + nums(it.Transform[:]...) + `)"`)
	}
	writePaint(b, "fill", it.Fill)
	if it.EvenOdd {
		b.WriteString(` fill-rule="evenodd"`)
	}
	writePaint(b, "stroke", it.Stroke)
	if !it.Stroke.None {
		b.WriteString(` stroke-width="` + fnum(it.StrokeWidth) + `" stroke-linecap="` + it.LineCap + `" stroke-linejoin="` +
			it.LineJoin + `" stroke-miterlimit="` + fnum(it.MiterLimit) + `"`)
		if len(it.Dash) > 0 {
			b.WriteString(` stroke-dasharray="` + nums(it.Dash...) + `" stroke-dashoffset="` + fnum(it.DashOffset) + `"`)
		}
	}
	b.WriteString("/>\n")
}

func writePaint(b *bytes.Buffer, name string, p Paint) {
	switch {
	case p.None:
		b.WriteString(" " + name + `="none"`)
		return
	case p.Gradient != nil:
		b.WriteString(" " + name + `="url(#` + p.Gradient.ID + `)"`)
	default:
		b.WriteString(" " + name + `="` + hexOf(color.NRGBA{p.Color.R, p.Color.G, p.Color.B, 255}) + `"`)
	}
	if p.Opacity != 1 {
		b.WriteString(" " + name + `-opacity="` + fnum(p.Opacity) + `"`)
	}
}

var opLetters = map[Op]string{MoveTo: "M", LineTo: "L", QuadTo: "Q", CubicTo: "C", ArcTo: "A", Close: "Z"}

// opSizes are how many numbers each operation carries.
var opSizes = map[Op]int{MoveTo: 2, LineTo: 2, QuadTo: 4, CubicTo: 6, ArcTo: 7, Close: 0}

func writePath(b *bytes.Buffer, path []Seg) {
	for i, s := range path {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(opLetters[s.Op])
		if n := opSizes[s.Op]; n > 0 {
			b.WriteByte(' ')
			b.WriteString(nums(s.P[:n]...))
		}
	}
}

// fnum writes a number with at most six decimals and no exponent.
func fnum(f float64) string {
	s := strconv.FormatFloat(round(f), 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

func nums(fs ...float64) string {
	var b bytes.Buffer
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fnum(f))
	}
	return b.String()
}
