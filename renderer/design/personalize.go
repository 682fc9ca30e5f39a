package design

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/pressroom/pressroom/renderer/dpi"
)

// Personalization is what a buyer gave for the custom objects of one product: per print space and
// object, a typed or chosen text, and a chosen picture or an uploaded photo. The cart line, the order
// item and the designer review keep it as JSON in this shape (docs/personalization.md).
type Personalization struct {
	Texts  []TextValue  `json:"texts"`
	Images []ImageValue `json:"images"`
}

// TextValue is the text a buyer typed or chose for a custom text.
type TextValue struct {
	PrintSpace string `json:"print_space"`
	ObjectID   string `json:"object_id"`
	Label      string `json:"label"`
	Value      string `json:"value"`
}

// ImageValue is the picture a buyer chose or the photo they uploaded for a custom image, with its
// natural size, which places it.
type ImageValue struct {
	PrintSpace string `json:"print_space"`
	ObjectID   string `json:"object_id"`
	Label      string `json:"label"`
	// Key is the blob key of the picture: the buyer's checked photo or the chosen option's source.
	Key string `json:"key"`
	// Choice is the chosen option's label; empty for a photo.
	Choice string `json:"choice,omitempty"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Answer is a buyer's raw answer to one Field: Text for typed text, Choice (an option's index, from
// 0; -1 for none) for a dropdown, Photo for an uploaded photo.
type Answer struct {
	Text   string
	Choice int
	Photo  *Photo
}

// Photo is a buyer's photo as the upload check measured it.
type Photo struct {
	Key    string
	Width  int
	Height int
}

// What a buyer reads next to a field they filled wrongly (docs/personalization.md).
const (
	MsgRequired      = "This field is required."
	MsgTooLong       = "Use at most %d characters."
	MsgOneLine       = "Use a single line of text."
	MsgLetters       = "Use letters and spaces only."
	MsgAlphanumeric  = "Use letters, digits and spaces only."
	MsgDigits        = "Use digits only."
	MsgChoose        = "Choose one of the options."
	MsgPhotoRequired = "Upload a photo."
)

// FieldProblem is a buyer's answer refused, with the message they read next to the field.
type FieldProblem struct {
	PrintSpace, ObjectID, Message string
}

// ErrStale is a personalization that no longer fits its document: the seller changed the design
// since the buyer filled it.
var ErrStale = errors.New("the personalization does not fit the design")

// checkTyped answers the message for a typed text, or "" when it is fine. An empty text is
// refused only when required.
func checkTyped(s, charset string, maxLength int, required bool) string {
	if s == "" {
		if required {
			return MsgRequired
		}
		return ""
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return MsgOneLine
		}
	}
	if n := utf8.RuneCountInString(s); n > maxLength {
		return fmt.Sprintf(MsgTooLong, maxLength)
	}
	for _, r := range s {
		if !allowedRune(charset, r) {
			switch charset {
			case CharsetLetters:
				return MsgLetters
			case CharsetAlphanumeric:
				return MsgAlphanumeric
			default:
				return MsgDigits
			}
		}
	}
	return ""
}

// Collect checks a buyer's answers for the fields of the document of print space space (answers
// keyed by object id) and returns the personalization they make, or every problem. Dropdowns and
// required fields must be answered. An optional field left unanswered gives no value, so the object
// prints as the seller designed it; an optional text answered empty gives an empty value, which
// leaves the object out.
func Collect(doc *Document, space string, answers map[string]Answer) (Personalization, []FieldProblem) {
	p := Personalization{Texts: []TextValue{}, Images: []ImageValue{}}
	var problems []FieldProblem
	refuse := func(f Field, msg string) {
		problems = append(problems, FieldProblem{PrintSpace: space, ObjectID: f.ObjectID, Message: msg})
	}
	for _, f := range doc.Fields() {
		a, answered := answers[f.ObjectID]
		switch {
		case f.Kind == InputDropdown:
			if !answered || a.Choice < 0 || a.Choice >= len(f.Options) {
				refuse(f, MsgChoose)
				continue
			}
			c := f.Options[a.Choice]
			if f.Image {
				p.Images = append(p.Images, ImageValue{PrintSpace: space, ObjectID: f.ObjectID, Label: f.Label, Key: c.Src,
					Choice: c.Label, Width: c.Width, Height: c.Height})
			} else {
				p.Texts = append(p.Texts, TextValue{PrintSpace: space, ObjectID: f.ObjectID, Label: f.Label, Value: c.Value})
			}
		case f.Image:
			if !answered || a.Photo == nil || a.Photo.Key == "" || a.Photo.Width <= 0 || a.Photo.Height <= 0 {
				if f.Required {
					refuse(f, MsgPhotoRequired)
				}
				continue
			}
			p.Images = append(p.Images, ImageValue{PrintSpace: space, ObjectID: f.ObjectID, Label: f.Label, Key: a.Photo.Key,
				Width: a.Photo.Width, Height: a.Photo.Height})
		default:
			if !answered && !f.Required {
				continue
			}
			if msg := checkTyped(a.Text, f.Charset, f.MaxLength, f.Required); msg != "" {
				refuse(f, msg)
				continue
			}
			p.Texts = append(p.Texts, TextValue{PrintSpace: space, ObjectID: f.ObjectID, Label: f.Label, Value: a.Text})
		}
	}
	return p, problems
}

// Merge adds q's values to p (the answers of another print space).
func (p *Personalization) Merge(q Personalization) {
	p.Texts = append(p.Texts, q.Texts...)
	p.Images = append(p.Images, q.Images...)
}

// Empty says whether the buyer gave nothing.
func (p Personalization) Empty() bool { return len(p.Texts) == 0 && len(p.Images) == 0 }

// Apply returns a copy of doc, the document of print space space, with the buyer's values in place:
// a text gets its value (an empty one leaves the object out), an image its picture fitted inside the
// object's box (keeping its aspect, centred, turned with the box), and a custom object without a
// value stays as the seller designed it. A value that no longer fits the document (an object gone,
// a text too long, a choice no longer offered, a required field without a value) is ErrStale. doc
// itself is not changed.
func Apply(doc *Document, space string, p Personalization) (*Document, error) {
	texts := map[string]TextValue{}
	for _, v := range p.Texts {
		if v.PrintSpace == space {
			texts[v.ObjectID] = v
		}
	}
	images := map[string]ImageValue{}
	for _, v := range p.Images {
		if v.PrintSpace == space {
			images[v.ObjectID] = v
		}
	}
	out := &Document{Version: doc.Version, PrintSpace: doc.PrintSpace, Objects: make([]Object, 0, len(doc.Objects))}
	fields := map[string]Field{}
	for _, f := range doc.Fields() {
		fields[f.ObjectID] = f
	}
	used := 0
	for _, o := range doc.Objects {
		switch o := o.(type) {
		case *TextObject:
			if !o.IsCustom {
				out.Objects = append(out.Objects, o)
				continue
			}
			f := fields[o.ID]
			v, ok := texts[o.ID]
			if !ok {
				if f.Kind == InputDropdown || f.Required {
					return nil, fmt.Errorf("%w: %s has no value", ErrStale, o.ID)
				}
				out.Objects = append(out.Objects, o)
				continue
			}
			used++
			if f.Kind == InputDropdown {
				if !slices.ContainsFunc(f.Options, func(c Choice) bool { return c.Value == v.Value }) {
					return nil, fmt.Errorf("%w: %q is not an option of %s", ErrStale, v.Value, o.ID)
				}
			} else if msg := checkTyped(v.Value, f.Charset, f.MaxLength, f.Required); msg != "" {
				return nil, fmt.Errorf("%w: %s: %s", ErrStale, o.ID, msg)
			}
			if v.Value == "" {
				continue
			}
			t := *o
			t.Text = v.Value
			out.Objects = append(out.Objects, &t)
		case *ImageObject:
			if !o.IsCustom {
				out.Objects = append(out.Objects, o)
				continue
			}
			f := fields[o.ID]
			v, ok := images[o.ID]
			if !ok {
				if f.Kind == InputDropdown || f.Required {
					return nil, fmt.Errorf("%w: %s has no picture", ErrStale, o.ID)
				}
				out.Objects = append(out.Objects, o)
				continue
			}
			used++
			if f.Kind == InputDropdown && !slices.ContainsFunc(f.Options, func(c Choice) bool {
				return c.Src == v.Key && c.Width == v.Width && c.Height == v.Height
			}) {
				return nil, fmt.Errorf("%w: %s is not an option of %s", ErrStale, v.Key, o.ID)
			}
			if SourceKindOf(v.Key) == SourceInvalid || v.Width <= 0 || v.Height <= 0 {
				return nil, fmt.Errorf("%w: bad picture %q %dx%d for %s", ErrStale, v.Key, v.Width, v.Height, o.ID)
			}
			img := *o
			img.Src = v.Key
			img.X, img.Y, img.Width, img.Height = Fit(o, v.Width, v.Height)
			out.Objects = append(out.Objects, &img)
		default:
			out.Objects = append(out.Objects, o)
		}
	}
	if used != len(texts)+len(images) {
		return nil, fmt.Errorf("%w: values for objects the design no longer has", ErrStale)
	}
	return out, nil
}

// Fit places a w x h picture inside the image object's box: as large as fits keeping its aspect,
// centred in the box, turned with it (the box turns about its top-left corner). It answers the
// picture's x, y, width and height.
func Fit(box *ImageObject, w, h int) (x, y, width, height float64) {
	s := math.Min(box.Width/float64(w), box.Height/float64(h))
	width, height = float64(w)*s, float64(h)*s
	dx, dy := (box.Width-width)/2, (box.Height-height)/2
	sin, cos := math.Sincos(box.Rotation * math.Pi / 180)
	return box.X + dx*cos - dy*sin, box.Y + dx*sin + dy*cos, width, height
}

// MsgLowPhoto is what a buyer reads when their photo would print blurred: its size, the DPI it would
// print at (rounded down) and the print space's minimum.
const MsgLowPhoto = "This photo is %d × %d px: here it would print at %d DPI, below the %s DPI a sharp print needs. Choose a larger photo."

// PhotoWarning answers MsgLowPhoto when a w x h photo in the custom image objectID would print below
// the print space's minimum DPI (the DPI rule of renderer/dpi, once fitted in the box), else "".
func PhotoWarning(doc *Document, objectID string, w, h int) string {
	i := slices.IndexFunc(doc.Objects, func(o Object) bool {
		img, ok := o.(*ImageObject)
		return ok && img.ID == objectID && img.IsCustom
	})
	if i < 0 || w <= 0 || h <= 0 {
		return ""
	}
	_, _, pw, ph := Fit(doc.Objects[i].(*ImageObject), w, h)
	ps := doc.PrintSpace
	eff := dpi.Effective(dpi.Placement{SourceWidth: w, SourceHeight: h, PlacedWidth: pw, PlacedHeight: ph}, ps.DPI)
	if dpi.QualityOf(eff, ps.DPI, ps.MinDPI) != dpi.Low {
		return ""
	}
	return fmt.Sprintf(MsgLowPhoto, w, h, int(math.Floor(eff)), num(ps.MinDPI))
}
