package svgdoc

import (
	"image/color"
	"math"
	"strconv"
)

// gradientAttrs are what a gradient takes from the one its href names when it lacks them.
var gradientAttrs = []string{"x1", "y1", "x2", "y2", "cx", "cy", "r", "fx", "fy", "gradientUnits", "gradientTransform",
	"spreadMethod"}

// buildGradients reads every gradient with an id, following href chains (a gradient takes the
// attributes and stops it lacks from the one it names), and names them g1, g2, … in the clean file.
func (b *builder) buildGradients() error {
	var order []string
	var walk func(e *elem)
	walk = func(e *elem) {
		if (e.name == "linearGradient" || e.name == "radialGradient") && e.id != "" && b.ids[e.id] == e {
			order = append(order, e.id)
		}
		for _, c := range e.children {
			walk(c)
		}
	}
	walk(b.root)
	for _, id := range order {
		g, err := b.gradient(b.ids[id])
		if err != nil {
			return err
		}
		g.ID = "g" + strconv.Itoa(len(b.doc.Gradients)+1)
		b.gradients[id] = g
		b.doc.Gradients = append(b.doc.Gradients, g)
	}
	return nil
}

func (b *builder) gradient(e *elem) (*Gradient, error) {
	attrs := map[string]string{}
	var stops []*elem
	seen := map[*elem]bool{}
	for cur := e; cur != nil && !seen[cur] && len(seen) < 16; {
		seen[cur] = true
		for _, a := range gradientAttrs {
			if v, ok := cur.attrs[a]; ok {
				if _, have := attrs[a]; !have {
					attrs[a] = v
				}
			}
		}
		if stops == nil {
			for _, c := range cur.children {
				if c.name == "stop" {
					stops = append(stops, c)
				}
			}
		}
		next := b.ids[cur.attrs["href"]]
		if next == nil || (next.name != "linearGradient" && next.name != "radialGradient") {
			break
		}
		cur = next
	}
	g := &Gradient{Radial: e.name == "radialGradient", UserSpace: attrs["gradientUnits"] == "userSpaceOnUse",
		Transform: Identity, Spread: "pad"}
	if v := attrs["spreadMethod"]; v == "reflect" || v == "repeat" {
		g.Spread = v
	}
	if t, ok := attrs["gradientTransform"]; ok {
		m, err := parseTransform(t, &b.numbers)
		if err != nil {
			return nil, b.attrError(err, "gradientTransform", t)
		}
		g.Transform = m
	}
	w, h := b.doc.Width, b.doc.Height
	diag := math.Sqrt((w*w + h*h) / 2)
	// A coordinate: a fraction of the box (a percentage or a number) for objectBoundingBox, a length
	// for userSpaceOnUse.
	coord := func(name string, def string, ref float64) (float64, error) {
		v, ok := attrs[name]
		if !ok {
			v = def
		}
		if !g.UserSpace {
			ref = 1
		}
		f, err := length(v, ref, &b.numbers)
		if err != nil {
			return 0, b.attrError(err, name, v)
		}
		return f, nil
	}
	var err error
	pct := func(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) + "%" }
	if g.Radial {
		if g.CX, err = coord("cx", pct(50), w); err != nil {
			return nil, err
		}
		if g.CY, err = coord("cy", pct(50), h); err != nil {
			return nil, err
		}
		if g.R, err = coord("r", pct(50), diag); err != nil {
			return nil, err
		}
		if g.FX, err = coord("fx", attrOr(attrs, "cx", pct(50)), w); err != nil {
			return nil, err
		}
		if g.FY, err = coord("fy", attrOr(attrs, "cy", pct(50)), h); err != nil {
			return nil, err
		}
	} else {
		for _, c := range []struct {
			dst  *float64
			name string
			def  string
			ref  float64
		}{{&g.X1, "x1", "0", w}, {&g.Y1, "y1", "0", h}, {&g.X2, "x2", pct(100), w}, {&g.Y2, "y2", "0", h}} {
			if *c.dst, err = coord(c.name, c.def, c.ref); err != nil {
				return nil, err
			}
		}
	}
	last := 0.0
	for _, s := range stops {
		p := b.props(s)
		offset := 0.0
		if v, ok := s.attrs["offset"]; ok {
			offset, _ = fraction(v)
		}
		offset = math.Max(offset, last)
		last = offset
		c := color.NRGBA{A: 255}
		if v, ok := p["stop-color"]; ok {
			if parsed, ok := parseColor(v); ok {
				c = parsed
			}
		}
		if v, ok := p["stop-opacity"]; ok {
			if f, ok := fraction(v); ok {
				c.A = unit8(float64(c.A) / 255 * f)
			}
		}
		g.Stops = append(g.Stops, Stop{Offset: round(offset), Color: c})
	}
	return g, nil
}

func attrOr(attrs map[string]string, name, def string) string {
	if v, ok := attrs[name]; ok {
		return v
	}
	return def
}
