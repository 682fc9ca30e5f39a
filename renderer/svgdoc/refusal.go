package svgdoc

import (
	"errors"
	"fmt"
)

// Limits of the files Parse accepts.
const (
	// MaxBytes is the largest file read.
	MaxBytes = 5 << 20
	// MaxDepth is how deeply elements may nest.
	MaxDepth = 32
	// MaxElements is how many elements a file may hold: those it has, and again those its <use>
	// references repeat.
	MaxElements = 20_000
	// MaxPoints is how many numbers the shapes' geometry (path data and point lists, repeats
	// included) may hold.
	MaxPoints = 1_000_000
	// MaxNumber bounds every coordinate and length, in the file's units.
	MaxNumber = 1_000_000
	// MaxAspect is how much longer than wide (or wider than long) the drawing may be.
	MaxAspect = 100
)

// The kinds of refusal, for errors.Is; the message a seller reads is the error's, which says more.
var (
	ErrTooLarge      = errors.New("the SVG file is too large")
	ErrNotSVG        = errors.New("not an SVG file")
	ErrMalformed     = errors.New("the SVG file is not well-formed")
	ErrEncoding      = errors.New("the SVG file is not UTF-8")
	ErrEntities      = errors.New("the SVG declares entities")
	ErrScript        = errors.New("the SVG holds a script")
	ErrEventHandler  = errors.New("the SVG holds an event handler")
	ErrExternal      = errors.New("the SVG refers outside itself")
	ErrForeignObject = errors.New("the SVG holds a foreignObject")
	ErrAnimation     = errors.New("the SVG holds an animation")
	ErrUnsupported   = errors.New("the SVG uses an element the renderer cannot draw")
	ErrStyleSheet    = errors.New("the SVG's style sheet is not accepted")
	ErrTooDeep       = errors.New("the SVG nests too deeply")
	ErrTooMany       = errors.New("the SVG has too many elements")
	ErrTooComplex    = errors.New("the SVG's shapes have too many points")
	ErrNumber        = errors.New("the SVG has a number out of bounds")
	ErrSize          = errors.New("the SVG's size is not accepted")
	ErrUse           = errors.New("the SVG's <use> references are broken")
)

// Refusal is a file Parse refused: Error is the message the seller reads, Unwrap the kind.
type Refusal struct {
	kind error
	msg  string
}

func (r *Refusal) Error() string { return r.msg }
func (r *Refusal) Unwrap() error { return r.kind }

// Refuse makes a refusal of kind with the message the seller reads; the renderer refuses drawings with it too.
func Refuse(kind error, format string, args ...any) error {
	return &Refusal{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// quote shows a piece of the file in a message: quoted, at most 60 characters.
func quote(s string) string {
	r := []rune(s)
	if len(r) > 60 {
		return fmt.Sprintf("%q…", string(r[:57]))
	}
	return fmt.Sprintf("%q", s)
}

// hints are what to do instead when the file uses an element the renderer cannot draw.
var hints = map[string]string{
	"text":     "convert the text to outlines (paths) in your editor",
	"tspan":    "convert the text to outlines (paths) in your editor",
	"textPath": "convert the text to outlines (paths) in your editor",
	"image":    "upload the bitmap itself as a PNG or WebP clipart",
	"clipPath": "release or flatten the clipping in your editor",
	"mask":     "flatten the mask in your editor",
	"filter":   "remove the filter effect, or export the clipart as a PNG",
	"pattern":  "expand the pattern into shapes, or export the clipart as a PNG",
	"svg":      "ungroup the nested drawing into the main one",
}

func unsupported(name string) error {
	hint, ok := hints[name]
	if !ok {
		hint = "remove it, or export the clipart as a PNG"
	}
	return Refuse(ErrUnsupported, "The SVG uses <%s>, which cannot be printed: %s.", name, hint)
}
