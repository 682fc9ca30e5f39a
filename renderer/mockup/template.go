package mockup

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"regexp"
	"strconv"
)

// Errors of templates and renders.
var (
	// ErrInvalidTemplate: the template JSON is malformed or breaks a rule (quad outside the photo, a
	// concave quad, an unknown field, a size larger than the photo), or one of its images is missing,
	// undecodable or of the wrong size. The wrapped message names the template and the field or file.
	ErrInvalidTemplate = errors.New("mockup: invalid template")
	// ErrNotFlat: the template has a glb model; it is a 3D template, rendered by the Chrome pool.
	ErrNotFlat = errors.New("mockup: not a flat template")
	// ErrInvalidOptions: the colour is not #rgb or #rrggbb, the size is not one of the template's sizes,
	// or the print file is empty.
	ErrInvalidOptions = errors.New("mockup: invalid options")
)

// Template limits.
const (
	// MaxTemplateBytes is the largest template JSON accepted.
	MaxTemplateBytes = 64 << 10
	// MaxPhotoSide is the largest width or height of a template photo.
	MaxPhotoSide = 8000
	// MinSize is the smallest output size a template may list.
	MinSize = 16
	// MaxDisplacement is the largest displacement scale, in photo pixels.
	MaxDisplacement = 64
)

// Template is a flat mockup template: the design_json of a template_mockups row whose glb is empty, plus what placing a print needs. File fields are sources for the renderer's
// Loader: paths relative to the template file on the command line, blob keys in the service. Every
// coordinate is in the photo's pixels. Parse it with Parse; the zero value is not a valid template.
type Template struct {
	// Version is the format version, 1.
	Version int `json:"version"`
	// ID names the template; with the size and the Fingerprint of the rest it keys the cache.
	ID string `json:"id"`
	// Name is the label shown to sellers ("T-shirt, front").
	Name string `json:"name"`
	// PrintSpace is the print space the template shows ("front", "back", "wrap").
	PrintSpace string `json:"print_space"`
	// TypeDetail is the product mockup type the template is for; empty means any.
	TypeDetail string `json:"type_detail,omitempty"`
	// Width and Height are the photo's size; the base and every map must be exactly this size.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Base is the product photo, drawn in its neutral (white) colour.
	Base string `json:"base"`
	// Quad is the print area: where the print file's top-left, top-right, bottom-right and bottom-left
	// corners land in the photo. It must be convex and inside the photo (and the crop).
	Quad [4]Point `json:"quad"`
	// Shadow is the shading map multiplied over the print (grey; white leaves the print as it is, darker
	// darkens it: folds, the curve of a mug). Empty means none.
	Shadow string `json:"shadow,omitempty"`
	// Displacement is the displacement map: red is the horizontal and green the vertical offset of the
	// point of the print shown at each pixel, 128 meaning none, 0 and 255 meaning -/+ DisplacementScale
	// photo pixels. Empty means none.
	Displacement string `json:"displacement,omitempty"`
	// DisplacementScale is the offset in photo pixels of a displacement value of 0 or 255 (0..64).
	DisplacementScale float64 `json:"displacement_scale,omitempty"`
	// Mask limits the print to the product (grey; white shows the print, black hides it). Empty means the
	// print shows wherever the quad is.
	Mask string `json:"mask,omitempty"`
	// Tint says where the product colour applies (grey; white takes the full colour by multiplying the
	// base, black keeps the base as it is). Empty means the product has no colour (a poster).
	Tint string `json:"tint,omitempty"`
	// Color is the default product colour, #rgb or #rrggbb; empty means white (no tint).
	Color string `json:"color,omitempty"`
	// Crop, when set, is the part of the photo the mockup shows; the output sizes apply to it.
	Crop *Rect `json:"crop,omitempty"`
	// Glb is the 3D model of a 3D template (a template's design_json has name, color, crop, shadow and glb);
	// a flat template has none, and Parse and Render refuse one that has with ErrNotFlat.
	Glb string `json:"glb,omitempty"`
	// Sizes are the output sizes (long side, pixels) the template is rendered at, e.g. [2000, 500]; none
	// may exceed the photo's (or crop's) long side.
	Sizes []int `json:"sizes"`
}

// Point is a position in photo pixels; it reads and writes as [x, y].
type Point struct{ X, Y float64 }

// MarshalJSON writes [x, y].
func (p Point) MarshalJSON() ([]byte, error) { return json.Marshal([2]float64{p.X, p.Y}) }

// UnmarshalJSON reads [x, y].
func (p *Point) UnmarshalJSON(b []byte) error {
	var a []float64
	if err := json.Unmarshal(b, &a); err != nil || len(a) != 2 {
		return fmt.Errorf("point %s: want [x, y]", b)
	}
	p.X, p.Y = a[0], a[1]
	return nil
}

// Rect is a rectangle in photo pixels.
type Rect struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// Parse reads and validates a template. Unknown fields are errors. It checks everything that can be
// checked without the images; missing or mis-sized images are reported when the template is first
// rendered.
func Parse(data []byte) (*Template, error) {
	if len(data) > MaxTemplateBytes {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrInvalidTemplate, len(data), MaxTemplateBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var t Template
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidTemplate, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the template object", ErrInvalidTemplate)
	}
	if err := t.validate(); err != nil {
		return nil, err
	}
	return &t, nil
}

// Fingerprint identifies the template's content; the cache keys on it with the id, so an edited template
// (a new file, or a Template changed in code) is never served from the entry of its previous version.
func (t *Template) Fingerprint() string {
	data, err := json.Marshal(t)
	if err != nil { // cannot happen: every field marshals
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// View is the part of the photo the mockup shows: Crop, or the whole photo.
func (t *Template) View() Rect {
	if t.Crop != nil {
		return *t.Crop
	}
	return Rect{Width: t.Width, Height: t.Height}
}

// OutputSize is the mockup's size in pixels at a size (its long side).
func (t *Template) OutputSize(size int) (w, h int) {
	v := t.View()
	if v.Width >= v.Height {
		return size, max(1, int(math.Round(float64(size)*float64(v.Height)/float64(v.Width))))
	}
	return max(1, int(math.Round(float64(size)*float64(v.Width)/float64(v.Height)))), size
}

func (t *Template) validate() error {
	bad := func(format string, args ...any) error {
		id := t.ID
		if id == "" {
			id = "(no id)"
		}
		return fmt.Errorf("%w: template %s: %s", ErrInvalidTemplate, id, fmt.Sprintf(format, args...))
	}
	switch {
	case t.Version != 1:
		return bad("version %d: want 1", t.Version)
	case !idPattern.MatchString(t.ID):
		return bad("id %q: want 1-64 of a-z, 0-9, - and _", t.ID)
	case t.Glb != "":
		return fmt.Errorf("%w: template %s has glb %q", ErrNotFlat, t.ID, t.Glb)
	case t.Width <= 0 || t.Height <= 0 || t.Width > MaxPhotoSide || t.Height > MaxPhotoSide:
		return bad("photo size %dx%d: want 1..%d on each side", t.Width, t.Height, MaxPhotoSide)
	case t.Base == "":
		return bad("base: missing")
	case t.DisplacementScale < 0 || t.DisplacementScale > MaxDisplacement || math.IsNaN(t.DisplacementScale):
		return bad("displacement_scale %v: want 0..%d photo pixels", t.DisplacementScale, MaxDisplacement)
	case t.Displacement != "" && t.DisplacementScale == 0:
		return bad("displacement %q without a displacement_scale", t.Displacement)
	}
	if _, err := ParseColor(t.Color); err != nil {
		return bad("color: %v", err)
	}
	v := t.View()
	if t.Crop != nil && (v.Width <= 0 || v.Height <= 0 || v.X < 0 || v.Y < 0 || v.X+v.Width > t.Width || v.Y+v.Height > t.Height) {
		return bad("crop %+v is not inside the %dx%d photo", *t.Crop, t.Width, t.Height)
	}
	for i, p := range t.Quad {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || p.X < float64(v.X) || p.Y < float64(v.Y) ||
			p.X > float64(v.X+v.Width) || p.Y > float64(v.Y+v.Height) {
			if t.Crop != nil {
				return bad("quad[%d] (%g, %g) is outside the crop %+v", i, p.X, p.Y, v)
			}
			return bad("quad[%d] (%g, %g) is outside the %dx%d photo", i, p.X, p.Y, t.Width, t.Height)
		}
	}
	if err := checkConvex(t.Quad); err != nil {
		return bad("quad: %v", err)
	}
	if len(t.Sizes) == 0 {
		return bad("sizes: none; want the output sizes, e.g. [%d, %d]", DefaultSize, PreviewSize)
	}
	long := max(v.Width, v.Height)
	for i, s := range t.Sizes {
		if s < MinSize || s > long {
			return bad("sizes[%d] %d: want %d..%d (the photo's long side; photos are not upscaled)", i, s, MinSize, long)
		}
	}
	return nil
}

// checkConvex accepts a strictly convex quad in either winding with an area of at least one pixel.
func checkConvex(q [4]Point) error {
	var sign float64
	for i := range 4 {
		a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
		cross := (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
		if cross == 0 {
			return fmt.Errorf("corners %d, %d and %d are in a line", i, (i+1)%4, (i+2)%4)
		}
		if sign != 0 && (cross > 0) != (sign > 0) {
			return errors.New("not convex (corners must go top-left, top-right, bottom-right, bottom-left)")
		}
		sign = cross
	}
	area := 0.0
	for i := range 4 {
		a, b := q[i], q[(i+1)%4]
		area += a.X*b.Y - b.X*a.Y
	}
	if math.Abs(area)/2 < 1 {
		return fmt.Errorf("area %.2f px: too small", math.Abs(area)/2)
	}
	return nil
}

// ParseColor reads a product colour: #rgb or #rrggbb; empty is white.
func ParseColor(s string) (color.RGBA, error) {
	if s == "" {
		return color.RGBA{255, 255, 255, 255}, nil
	}
	hex := s
	if len(hex) > 0 && hex[0] == '#' {
		hex = hex[1:]
	}
	if len(s) == 0 || s[0] != '#' || (len(hex) != 3 && len(hex) != 6) {
		return color.RGBA{}, fmt.Errorf("%q: want #rgb or #rrggbb", s)
	}
	if len(hex) == 3 {
		hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	}
	n, err := strconv.ParseUint(hex, 16, 32)
	if err != nil {
		return color.RGBA{}, fmt.Errorf("%q: want #rgb or #rrggbb", s)
	}
	return color.RGBA{uint8(n >> 16), uint8(n >> 8), uint8(n), 255}, nil
}
