package tasks

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/pressroom/pressroom/platform/queue"
)

// TypeVariant is the task making a WebP size of an upload.
const TypeVariant = "render:variant"

// VariantPayload names the source blob and the variant to make of it.
type VariantPayload struct {
	Key     string `json:"key"`
	Variant string `json:"variant"`
}

// NewVariantJob builds the task making variant name of the blob under key, on the renderer's
// interactive queue (a screen waits for it). Its id is derived from both, so concurrent first
// requests queue it once.
func NewVariantJob(key, name string) (queue.Job, error) {
	sum := sha256.Sum256([]byte(name + "\x00" + key))
	return queue.NewJob(queue.Job{
		Type: TypeVariant, Queue: queue.Name(queue.Renderer, queue.Interactive),
		TaskID: "variant-" + name + "-" + hex.EncodeToString(sum[:16]), MaxRetry: 2, Timeout: 2 * time.Minute,
	}, VariantPayload{Key: key, Variant: name})
}

// VariantSpec is one named variant: the image is scaled down, keeping its aspect ratio, to fit inside
// Width x Height; a zero Height bounds the width alone (the design widths). Images already
// smaller are not scaled up.
type VariantSpec struct {
	Name   string `json:"name"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// VariantQuality is the WebP quality of every variant.
const VariantQuality = 90

// The variants, by the names the UI asks for.
var variants = []VariantSpec{
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

// Variants lists every variant.
func Variants() []VariantSpec { return slices.Clone(variants) }

// LookupVariant finds a variant by name.
func LookupVariant(name string) (VariantSpec, bool) {
	i := slices.IndexFunc(variants, func(s VariantSpec) bool { return s.Name == name })
	if i < 0 {
		return VariantSpec{}, false
	}
	return variants[i], true
}

// VariantNames lists the variant names, for error messages.
func VariantNames() string {
	names := make([]string, len(variants))
	for i, s := range variants {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// VariantKey is the blob key of variant name of the blob under src: v/{name}/{src}.webp.
func VariantKey(name, src string) string { return "v/" + name + "/" + src + ".webp" }

// Size is the size of the variant of a w x h image: scaled to fit, never up, at least 1 px.
func (s VariantSpec) Size(w, h int) (int, int) {
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
