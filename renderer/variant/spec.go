package variant

import (
	"slices"
	"strings"
)

// Spec is one named variant: the image is scaled down, keeping its aspect ratio, to fit inside
// Width x Height; a zero Height bounds the width alone (the design widths). Images already
// smaller are not scaled up.
type Spec struct {
	Name   string `json:"name"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Quality is the WebP quality of every variant.
const Quality = 90

// The variants, by the names the UI asks for.
var specs = []Spec{
	{Name: "preview", Width: 400, Height: 500},
	{Name: "list", Width: 600, Height: 750},
	{Name: "mobile", Width: 640, Height: 800},
	{Name: "small_list", Width: 320, Height: 400},
	{Name: "logo", Width: 256, Height: 256},
	{Name: "avatar", Width: 160, Height: 160},
	{Name: "thumb", Width: 160, Height: 200},
	{Name: "favicon", Width: 32, Height: 32},
	{Name: "full_hd", Width: 1000, Height: 1250},
	// The editor loads artwork in the design form, or design3x for full-3D print.
	{Name: "design", Width: 1500},
	{Name: "design2x", Width: 3000},
	{Name: "design3x", Width: 4500},
}

// All lists every variant.
func All() []Spec { return slices.Clone(specs) }

// Lookup finds a variant by name.
func Lookup(name string) (Spec, bool) {
	i := slices.IndexFunc(specs, func(s Spec) bool { return s.Name == name })
	if i < 0 {
		return Spec{}, false
	}
	return specs[i], true
}

// Names lists the variant names, for error messages.
func Names() string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// Key is the blob key of variant name of the blob under src: v/{name}/{src}.webp.
func Key(name, src string) string { return "v/" + name + "/" + src + ".webp" }

// Size is the size of the variant of a w x h image: scaled to fit, never up, at least 1 px.
func (s Spec) Size(w, h int) (int, int) {
	scale := 1.0
	if w > s.Width {
		scale = float64(s.Width) / float64(w)
	}
	if s.Height > 0 && float64(h)*scale > float64(s.Height) {
		scale = float64(s.Height) / float64(h)
	}
	if scale >= 1 {
		return w, h
	}
	return max(1, int(float64(w)*scale+0.5)), max(1, int(float64(h)*scale+0.5))
}
