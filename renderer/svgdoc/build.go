package svgdoc

import (
	"errors"
	"image/color"
	"math"
	"strconv"
	"strings"
)

// Doc is a clipart as the renderer draws it: its items in painting order, in the user space of its
// viewBox, and the clean file they were read from or written to.
type Doc struct {
	// MinX, MinY, Width and Height are the viewBox: the part of the user space the picture shows.
	MinX, MinY, Width, Height float64
	Items                     []Item
	Gradients                 []*Gradient
	// Clean is the file as stored: what Parse accepted, rewritten with only what Items hold.
	Clean []byte
}

// Item is one painted shape.
type Item struct {
	// Transform maps the shape's coordinates into the viewBox's user space.
	Transform Matrix
	Path      []Seg
	Fill      Paint
	Stroke    Paint
	// EvenOdd is fill-rule: evenodd (else nonzero).
	EvenOdd bool
	// StrokeWidth, Dash and DashOffset are in the shape's own units.
	StrokeWidth, MiterLimit, DashOffset float64
	Dash                                []float64
	// LineCap is butt, round or square; LineJoin miter, round or bevel.
	LineCap, LineJoin string
}

// Paint is a fill or a stroke: nothing, a colour or a gradient, with the opacity of the shape and its
// groups multiplied in.
type Paint struct {
	None     bool
	Color    color.NRGBA
	Gradient *Gradient
	Opacity  float64
}

// Gradient is a linear or radial gradient.
type Gradient struct {
	ID     string
	Radial bool
	// X1, Y1, X2, Y2 (linear) or CX, CY, R, FX, FY (radial): fractions of the shape's bounding box, or
	// user-space lengths when UserSpace.
	X1, Y1, X2, Y2, CX, CY, R, FX, FY float64
	UserSpace                         bool
	Transform                         Matrix
	// Spread is pad, reflect or repeat.
	Spread string
	Stops  []Stop
}

// Stop is a gradient stop; Color carries the stop's opacity.
type Stop struct {
	Offset float64
	Color  color.NRGBA
}

// Parse reads an SVG file and answers its clean Doc, or a *Refusal saying why the file is not
// accepted. It never panics: a bug found while reading is answered as a damaged file.
func Parse(data []byte) (doc *Doc, err error) {
	if len(data) > MaxBytes {
		return nil, Refuse(ErrTooLarge, "The SVG file is larger than %d MB.", MaxBytes>>20)
	}
	defer func() {
		if p := recover(); p != nil {
			doc, err = nil, Refuse(ErrMalformed, "The SVG file could not be read.")
		}
	}()
	r, err := read(data)
	if err != nil {
		return nil, err
	}
	rules, err := sheet(r.sheet.String())
	if err != nil {
		return nil, err
	}
	b := &builder{root: r.root, rules: rules, ids: map[string]*elem{}, gradients: map[string]*Gradient{}, count: r.count}
	b.index(r.root)
	if b.doc.MinX, b.doc.MinY, b.doc.Width, b.doc.Height, err = viewBox(r.root); err != nil {
		return nil, err
	}
	if err := b.buildGradients(); err != nil {
		return nil, err
	}
	base := state{ctm: Identity, opacity: 1, fill: paintSpec{color: color.NRGBA{A: 255}}, stroke: paintSpec{none: true},
		fillOpacity: 1, strokeOpacity: 1, strokeWidth: 1, miter: 4, lineCap: "butt", lineJoin: "miter",
		color: color.NRGBA{A: 255}}
	if err := b.walk(r.root, base, nil); err != nil {
		return nil, err
	}
	b.doc.Clean = write(&b.doc)
	return &b.doc, nil
}

// viewBox reads the root's viewBox, or else its width and height.
func viewBox(root *elem) (x, y, w, h float64, err error) {
	var n int
	if v, ok := root.attrs["viewBox"]; ok {
		nums, perr := parsePoints(v, &n)
		if errors.Is(perr, errBounds) {
			return 0, 0, 0, 0, Refuse(ErrSize, "The SVG is too large (viewBox %s): a side may be at most %d units.", quote(v), MaxNumber)
		}
		if perr != nil || len(nums) != 4 {
			return 0, 0, 0, 0, Refuse(ErrSize, "The SVG's viewBox %s cannot be read: it must be four numbers.", quote(v))
		}
		x, y, w, h = nums[0], nums[1], nums[2], nums[3]
	} else {
		ws, hs := root.attrs["width"], root.attrs["height"]
		var werr, herr error
		w, werr = length(ws, math.NaN(), &n)
		h, herr = length(hs, math.NaN(), &n)
		if errors.Is(werr, errBounds) || errors.Is(herr, errBounds) {
			return 0, 0, 0, 0, Refuse(ErrSize, "The SVG is too large (width %s, height %s): a side may be at most %d units.",
				quote(ws), quote(hs), MaxNumber)
		}
		if ws == "" || hs == "" || werr != nil || herr != nil || math.IsNaN(w) || math.IsNaN(h) {
			return 0, 0, 0, 0, Refuse(ErrSize, "The SVG has no size: give its <svg> a viewBox, or a width and a height in units.")
		}
	}
	switch {
	case !(w > 0 && h > 0):
		return 0, 0, 0, 0, Refuse(ErrSize, "The SVG's width and height must be more than 0 (it is %s × %s).", num(w), num(h))
	case w > MaxNumber || h > MaxNumber || math.Abs(x) > MaxNumber || math.Abs(y) > MaxNumber:
		return 0, 0, 0, 0, Refuse(ErrSize, "The SVG is too large (%s × %s units): a side may be at most %d units.", num(w), num(h), MaxNumber)
	case math.Max(w, h)/math.Min(w, h) > MaxAspect:
		return 0, 0, 0, 0, Refuse(ErrSize, "The SVG is %s × %s units: one side may be at most %d times the other.", num(w), num(h), MaxAspect)
	}
	return x, y, w, h, nil
}

type builder struct {
	root      *elem
	doc       Doc
	rules     map[string][]decl
	ids       map[string]*elem
	gradients map[string]*Gradient
	// count is the elements read and made (by <use>), against MaxElements; numbers the numbers
	// of the geometry, against MaxPoints.
	count, numbers int
}

func (b *builder) index(e *elem) {
	if e.id != "" {
		if _, ok := b.ids[e.id]; !ok {
			b.ids[e.id] = e
		}
	}
	for _, c := range e.children {
		b.index(c)
	}
}

// props are an element's properties: presentation attributes, then its class rules, then its style
// attribute, each overriding the one before.
func (b *builder) props(e *elem) map[string]string {
	out := map[string]string{}
	for k, v := range e.attrs {
		if properties[k] {
			out[k] = v
		}
	}
	for _, c := range e.classes {
		for _, d := range b.rules[c] {
			out[d.prop] = d.value
		}
	}
	for _, d := range declarations(e.style) {
		out[d.prop] = d.value
	}
	return out
}

// paintSpec is a fill or stroke as specified, before opacities are multiplied in.
type paintSpec struct {
	none     bool
	color    color.NRGBA
	gradient *Gradient
}

// state is what an element inherits from its parent (and, for transform and opacity, accumulates).
type state struct {
	ctm                            Matrix
	opacity                        float64
	fill, stroke                   paintSpec
	fillOpacity, strokeOpacity     float64
	strokeWidth, miter, dashOffset float64
	dash                           []float64
	lineCap, lineJoin              string
	evenOdd, hidden                bool
	color                          color.NRGBA
}

// shapes are the elements that paint.
var shapes = set("path", "rect", "circle", "ellipse", "line", "polyline", "polygon")

// walk paints e and what it holds onto the doc; uses are the <use> ids being expanded (a loop refuses).
func (b *builder) walk(e *elem, parent state, uses []string) error {
	switch e.name {
	case "defs", "style", "linearGradient", "radialGradient", "stop":
		return nil
	}
	b.count++
	if b.count > MaxElements {
		return tooMany()
	}
	st, display, err := b.apply(e, parent)
	if err != nil || !display {
		return err
	}
	switch {
	case e.name == "use":
		return b.use(e, st, uses)
	case shapes[e.name]:
		return b.shape(e, st)
	}
	for _, c := range e.children {
		if err := b.walk(c, st, uses); err != nil {
			return err
		}
	}
	return nil
}

// use paints what a <use> names, as if it were a group in its place moved by x and y.
func (b *builder) use(e *elem, st state, uses []string) error {
	id := e.attrs["href"]
	target, ok := b.ids[id]
	switch {
	case !ok:
		return Refuse(ErrUse, "The SVG's <use> refers to #%s, which the file does not define.", id)
	case target.name == "svg" || target.name == "defs" || target.name == "style" || target.name == "stop" ||
		target.name == "linearGradient" || target.name == "radialGradient":
		return Refuse(ErrUse, "The SVG's <use> refers to #%s, which is not a shape.", id)
	}
	for _, u := range uses {
		if u == id {
			return Refuse(ErrUse, "The SVG's <use> elements refer to each other in a loop (#%s).", id)
		}
	}
	x, err := b.length(e, "x", b.doc.Width)
	if err != nil {
		return err
	}
	y, err := b.length(e, "y", b.doc.Height)
	if err != nil {
		return err
	}
	st.ctm = st.ctm.Mul(Matrix{1, 0, 0, 1, x, y})
	return b.walk(target, st, append(uses, id))
}

// apply works out an element's state from its parent's and its own properties; display is false
// for display: none.
func (b *builder) apply(e *elem, st state) (state, bool, error) {
	if t, ok := e.attrs["transform"]; ok && e.name != "svg" {
		m, err := parseTransform(t, &b.numbers)
		if err != nil {
			return st, false, b.attrError(err, "transform", t)
		}
		st.ctm = st.ctm.Mul(m)
	}
	p := b.props(e)
	if v, ok := p["display"]; ok && strings.TrimSpace(v) == "none" {
		return st, false, nil
	}
	if v, ok := p["visibility"]; ok {
		st.hidden = v == "hidden" || v == "collapse"
	}
	if v, ok := p["color"]; ok {
		if c, ok := parseColor(v); ok {
			st.color = c
		}
	}
	if v, ok := p["fill"]; ok {
		st.fill = b.paint(v, st.fill, st.color)
	}
	if v, ok := p["stroke"]; ok {
		st.stroke = b.paint(v, st.stroke, st.color)
	}
	for prop, dst := range map[string]*float64{"fill-opacity": &st.fillOpacity, "stroke-opacity": &st.strokeOpacity} {
		if v, ok := p[prop]; ok {
			if f, ok := fraction(v); ok {
				*dst = f
			}
		}
	}
	if v, ok := p["opacity"]; ok {
		if f, ok := fraction(v); ok {
			st.opacity *= f
		}
	}
	diag := math.Sqrt((b.doc.Width*b.doc.Width + b.doc.Height*b.doc.Height) / 2)
	if v, ok := p["stroke-width"]; ok {
		if f, err := length(v, diag, &b.numbers); err == nil && f >= 0 {
			st.strokeWidth = f
		} else if errors.Is(err, errBounds) || errors.Is(err, errTooMany) {
			return st, false, b.attrError(err, "stroke-width", v)
		}
	}
	if v, ok := p["stroke-miterlimit"]; ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 1 && f <= 1000 {
			st.miter = f
		}
	}
	if v, ok := p["stroke-dashoffset"]; ok {
		if f, err := length(v, diag, &b.numbers); err == nil {
			st.dashOffset = f
		}
	}
	if v, ok := p["stroke-dasharray"]; ok {
		st.dash = b.dashes(v, diag)
	}
	if v, ok := p["stroke-linecap"]; ok && (v == "butt" || v == "round" || v == "square") {
		st.lineCap = v
	}
	if v, ok := p["stroke-linejoin"]; ok {
		switch v {
		case "miter", "miter-clip", "arcs":
			st.lineJoin = "miter"
		case "round", "bevel":
			st.lineJoin = v
		}
	}
	if v, ok := p["fill-rule"]; ok && (v == "evenodd" || v == "nonzero") {
		st.evenOdd = v == "evenodd"
	}
	return st, true, nil
}

// dashes reads a dash array: nil for none, or for a list browsers would ignore (a negative length,
// all zeros); an odd list is repeated, as the specification says.
func (b *builder) dashes(v string, diag float64) []float64 {
	if strings.TrimSpace(v) == "none" {
		return nil
	}
	var out []float64
	total := 0.0
	for part := range strings.FieldsFuncSeq(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		f, err := length(part, diag, &b.numbers)
		if err != nil || f < 0 {
			return nil
		}
		out = append(out, f)
		total += f
	}
	if total == 0 || len(out) > 100 {
		return nil
	}
	if len(out)%2 == 1 {
		out = append(out, out...)
	}
	return out
}

// paint reads a fill or stroke value; one that cannot be read leaves the inherited paint, as in a browser.
func (b *builder) paint(v string, inherited paintSpec, current color.NRGBA) paintSpec {
	v = strings.TrimSpace(v)
	lower := strings.ToLower(v)
	switch {
	case lower == "none":
		return paintSpec{none: true}
	case lower == "currentcolor":
		return paintSpec{color: current}
	case lower == "inherit":
		return inherited
	case strings.HasPrefix(lower, "url("):
		end := strings.IndexByte(v, ')')
		if end < 0 {
			return inherited
		}
		id := strings.Trim(strings.TrimSpace(v[4:end]), "'\"")
		if g, ok := b.gradients[strings.TrimPrefix(id, "#")]; ok {
			return paintSpec{gradient: g}
		}
		if fallback := strings.TrimSpace(v[end+1:]); fallback != "" {
			return b.paint(fallback, inherited, current)
		}
		return paintSpec{none: true}
	}
	if c, ok := parseColor(v); ok {
		return paintSpec{color: c}
	}
	return inherited
}

// shape adds a painted item for a shape element.
func (b *builder) shape(e *elem, st state) error {
	if st.hidden {
		return nil
	}
	path, err := b.geometry(e)
	if err != nil || len(path) == 0 {
		return err
	}
	item := Item{Transform: st.ctm, Path: path, EvenOdd: st.evenOdd, StrokeWidth: st.strokeWidth, MiterLimit: st.miter,
		Dash: st.dash, DashOffset: st.dashOffset, LineCap: st.lineCap, LineJoin: st.lineJoin,
		Fill: finish(st.fill, st.fillOpacity*st.opacity), Stroke: finish(st.stroke, st.strokeOpacity*st.opacity)}
	if item.StrokeWidth == 0 {
		item.Stroke = Paint{None: true}
	}
	if item.Fill.None && item.Stroke.None {
		return nil
	}
	b.doc.Items = append(b.doc.Items, item)
	return nil
}

// finish multiplies the opacities into a paint.
func finish(p paintSpec, opacity float64) Paint {
	switch {
	case p.none:
		return Paint{None: true}
	case p.gradient != nil:
		return Paint{Gradient: p.gradient, Opacity: round(opacity)}
	}
	o := float64(p.color.A) / 255 * opacity
	if o == 0 {
		return Paint{None: true}
	}
	return Paint{Color: color.NRGBA{p.color.R, p.color.G, p.color.B, 255}, Opacity: round(o)}
}

// length reads a length attribute of e (0 when absent).
func (b *builder) length(e *elem, name string, ref float64) (float64, error) {
	v, ok := e.attrs[name]
	if !ok || v == "" || v == "auto" {
		return 0, nil
	}
	f, err := length(v, ref, &b.numbers)
	if err != nil {
		return 0, b.attrError(err, name, v)
	}
	return f, nil
}

// geometry turns a shape element into path segments.
func (b *builder) geometry(e *elem) ([]Seg, error) {
	w, h := b.doc.Width, b.doc.Height
	diag := math.Sqrt((w*w + h*h) / 2)
	lengths := func(names string, refs ...float64) ([]float64, error) {
		var out []float64
		for i, n := range strings.Fields(names) {
			f, err := b.length(e, n, refs[i])
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
		return out, nil
	}
	switch e.name {
	case "path":
		d := e.attrs["d"]
		path, err := parsePath(d, &b.numbers)
		if err != nil {
			return nil, b.attrError(err, "d", d)
		}
		return path, nil
	case "rect":
		v, err := lengths("x y width height rx ry", w, h, w, h, w, h)
		if err != nil {
			return nil, err
		}
		_, hasRX := e.attrs["rx"]
		_, hasRY := e.attrs["ry"]
		rx, ry := v[4], v[5]
		if hasRX && !hasRY {
			ry = rx
		} else if hasRY && !hasRX {
			rx = ry
		}
		return rect(v[0], v[1], v[2], v[3], rx, ry), nil
	case "circle":
		v, err := lengths("cx cy r", w, h, diag)
		if err != nil {
			return nil, err
		}
		return ellipse(v[0], v[1], v[2], v[2]), nil
	case "ellipse":
		v, err := lengths("cx cy rx ry", w, h, w, h)
		if err != nil {
			return nil, err
		}
		return ellipse(v[0], v[1], v[2], v[3]), nil
	case "line":
		v, err := lengths("x1 y1 x2 y2", w, h, w, h)
		if err != nil {
			return nil, err
		}
		return []Seg{{Op: MoveTo, P: [7]float64{v[0], v[1]}}, {Op: LineTo, P: [7]float64{v[2], v[3]}}}, nil
	case "polyline", "polygon":
		pts, err := parsePoints(e.attrs["points"], &b.numbers)
		if err != nil {
			return nil, b.attrError(err, "points", e.attrs["points"])
		}
		if len(pts) < 4 {
			return nil, nil
		}
		path := []Seg{{Op: MoveTo, P: [7]float64{pts[0], pts[1]}}}
		for i := 2; i+1 < len(pts); i += 2 {
			path = append(path, Seg{Op: LineTo, P: [7]float64{pts[i], pts[i+1]}})
		}
		if e.name == "polygon" {
			path = append(path, Seg{Op: Close})
		}
		return path, nil
	}
	return nil, nil
}

func rect(x, y, w, h, rx, ry float64) []Seg {
	if w <= 0 || h <= 0 {
		return nil
	}
	rx, ry = math.Min(math.Max(rx, 0), w/2), math.Min(math.Max(ry, 0), h/2)
	if rx == 0 || ry == 0 {
		return []Seg{{Op: MoveTo, P: [7]float64{x, y}}, {Op: LineTo, P: [7]float64{x + w, y}},
			{Op: LineTo, P: [7]float64{x + w, y + h}}, {Op: LineTo, P: [7]float64{x, y + h}}, {Op: Close}}
	}
	arc := func(ex, ey float64) Seg { return Seg{Op: ArcTo, P: [7]float64{rx, ry, 0, 0, 1, ex, ey}} }
	line := func(ex, ey float64) Seg { return Seg{Op: LineTo, P: [7]float64{ex, ey}} }
	return []Seg{{Op: MoveTo, P: [7]float64{x + rx, y}}, line(x+w-rx, y), arc(x+w, y+ry), line(x+w, y+h-ry),
		arc(x+w-rx, y+h), line(x+rx, y+h), arc(x, y+h-ry), line(x, y+ry), arc(x+rx, y), {Op: Close}}
}

func ellipse(cx, cy, rx, ry float64) []Seg {
	if rx <= 0 || ry <= 0 {
		return nil
	}
	arc := func(ex, ey float64) Seg { return Seg{Op: ArcTo, P: [7]float64{rx, ry, 0, 0, 1, ex, ey}} }
	return []Seg{{Op: MoveTo, P: [7]float64{cx + rx, cy}}, arc(cx, cy+ry), arc(cx-rx, cy), arc(cx, cy-ry), arc(cx+rx, cy),
		{Op: Close}}
}

// attrError is the refusal of an attribute value: out of bounds, too many numbers, or unreadable.
func (b *builder) attrError(err error, name, value string) error {
	switch {
	case errors.Is(err, errTooMany):
		return Refuse(ErrTooComplex, "The SVG's shapes hold more than %d numbers: simplify the drawing.", MaxPoints)
	case errors.Is(err, errBounds):
		return Refuse(ErrNumber, "The SVG has a number out of bounds in %s=%s: coordinates and sizes may be at most %d.",
			name, quote(value), MaxNumber)
	}
	return Refuse(ErrMalformed, "The SVG has a %s that cannot be read: %s.", name, quote(value))
}

// num writes a number for a message.
func num(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }

// round keeps six decimals: what the clean file writes.
func round(f float64) float64 { return math.Round(f*1e6) / 1e6 }
