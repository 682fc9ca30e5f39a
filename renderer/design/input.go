package design

import "unicode"

// Input says how a buyer fills one customer object (docs/personalization.md). It is allowed only on
// an object with isCustom; a custom object without one is typed text (a text) or an uploaded photo
// (an image).
type Input struct {
	// Kind is InputText or InputDropdown on a text, InputImage or InputDropdown on an image.
	Kind string `json:"kind"`
	// Label is what the buyer reads beside the field ("Your name"); empty: a default by kind.
	Label string `json:"label,omitempty"`
	// Required refuses an empty field. An optional field left empty leaves the object out of the
	// print; a dropdown always has a choice.
	Required bool `json:"required,omitempty"`
	// Charset limits what a buyer may type into an InputText: CharsetAny (empty), CharsetLetters,
	// CharsetAlphanumeric or CharsetDigits. Spaces are allowed except with CharsetDigits.
	Charset string `json:"charset,omitempty"`
	// Options are a dropdown's choices, 1 to MaxChoices, in the order the buyer sees them.
	Options []Choice `json:"options,omitempty"`
}

// Choice is one option of a dropdown: a text's Value, or an image's Src with its natural size (the
// picture is fitted inside the object's box, keeping its aspect).
type Choice struct {
	Label  string `json:"label"`
	Value  string `json:"value,omitempty"`
	Src    string `json:"src,omitempty"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
}

// Input kinds.
const (
	InputText     = "text"
	InputDropdown = "dropdown"
	InputImage    = "image"
)

// Charsets of typed text.
const (
	CharsetAny          = ""
	CharsetLetters      = "letters"
	CharsetAlphanumeric = "alphanumeric"
	CharsetDigits       = "digits"
)

// MaxChoices bounds a dropdown's options; MaxChoicePixels a choice image's width and height.
const (
	MaxChoices      = 30
	MaxChoicePixels = 100000
)

// Field is one thing a buyer is asked for: a custom object of a document with its input resolved
// (kind and label defaulted).
type Field struct {
	ObjectID string
	Kind     string
	Label    string
	Required bool
	// Charset and MaxLength bound typed text; ConvertText is how it prints.
	Charset     string
	MaxLength   int
	ConvertText string
	// Options of a dropdown.
	Options []Choice
	// Sample is the seller's text or image source, what the buyer starts from.
	Sample string
	// Image is true for a custom image (a photo or a picture choice).
	Image bool
}

// Default labels of a custom object without one.
const (
	DefaultTextLabel  = "Your text"
	DefaultPhotoLabel = "Your photo"
	DefaultPickLabel  = "Your choice"
)

// Fields lists the document's custom objects in paint order, as the buyer fills them.
func (d *Document) Fields() []Field {
	var out []Field
	for _, o := range d.Objects {
		switch o := o.(type) {
		case *TextObject:
			if !o.IsCustom {
				continue
			}
			f := Field{ObjectID: o.ID, Kind: InputText, Label: DefaultTextLabel, MaxLength: o.MaxLength,
				ConvertText: o.ConvertText, Sample: o.Text}
			f.apply(o.Input, DefaultTextLabel)
			out = append(out, f)
		case *ImageObject:
			if !o.IsCustom {
				continue
			}
			f := Field{ObjectID: o.ID, Kind: InputImage, Label: DefaultPhotoLabel, Sample: o.Src, Image: true}
			f.apply(o.Input, DefaultPickLabel)
			out = append(out, f)
		}
	}
	return out
}

// WithoutCustom returns a copy of d without its custom objects (those Fields lists): the design as it
// shows under a buyer's own texts and pictures, which the base mockups draw (docs/mockups.md). d itself
// is not changed; the copy shares the objects it keeps.
func (d *Document) WithoutCustom() *Document {
	out := &Document{Version: d.Version, PrintSpace: d.PrintSpace, Objects: make([]Object, 0, len(d.Objects))}
	for _, o := range d.Objects {
		switch o := o.(type) {
		case *TextObject:
			if o.IsCustom {
				continue
			}
		case *ImageObject:
			if o.IsCustom {
				continue
			}
		}
		out.Objects = append(out.Objects, o)
	}
	return out
}

// apply takes what in states over the object's defaults; pick is the default label of a dropdown.
func (f *Field) apply(in *Input, pick string) {
	if in == nil {
		return
	}
	f.Kind, f.Required, f.Charset, f.Options = in.Kind, in.Required, in.Charset, in.Options
	switch {
	case in.Label != "":
		f.Label = in.Label
	case in.Kind == InputDropdown:
		f.Label = pick
	}
}

// allowedRune says whether charset lets a buyer type r.
func allowedRune(charset string, r rune) bool {
	switch charset {
	case CharsetLetters:
		return r == ' ' || unicode.IsLetter(r) || unicode.Is(unicode.Mn, r)
	case CharsetAlphanumeric:
		return r == ' ' || unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) || unicode.IsDigit(r)
	case CharsetDigits:
		return r >= '0' && r <= '9'
	}
	return true
}
