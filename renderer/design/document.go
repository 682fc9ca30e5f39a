package design

import "encoding/json"

// Version is the only document version this package reads.
const Version = 1

// Limits of the document. They are part of the contract: schema/design.schema.json states the same numbers.
const (
	// MaxDocumentBytes caps the JSON text; a real document is a few kilobytes.
	MaxDocumentBytes = 1 << 20
	// MaxPrintSize is the largest print-space width or height in pixels.
	MaxPrintSize = 20000
	// MaxDPI is the largest document DPI.
	MaxDPI = 2400
	// MaxObjects caps the objects of one print space.
	MaxObjects = 50
	// MaxTexts is the limit of text objects per print space (docs/editor.md).
	MaxTexts = 2
	// MaxTextLength is the longest maxLength: at most 16 characters (Unicode code points) of text.
	MaxTextLength = 16
	// MaxCoordinate bounds x and y (absolute value) and object widths and heights: ten times the largest
	// print space. It is absolute rather than relative to this document's print space so that the JSON schema
	// can state it too.
	MaxCoordinate = 10 * MaxPrintSize
	// MaxRotation bounds rotation in degrees (absolute value).
	MaxRotation = 360
	// MinFontSize and MaxFontSize bound fontSize in print pixels. A text's fontSize is also at most its print
	// space's height: one line taller than the print area would be drawn outside it (docs/editor.md).
	MinFontSize = 1
	MaxFontSize = 10000
	// MaxPrintType is the largest printType value accepted.
	MaxPrintType = 3
	// MaxIDLength bounds id and name strings.
	MaxIDLength = 100
	// MaxSourceLength bounds src, fontUrl and backgroundUrl.
	MaxSourceLength = 2048
)

// PrintTypeFull3D is the print type of full 3D (all-over) products, whose design export is three times as wide.
const PrintTypeFull3D = 2

// Document is one product print space's design. Coordinates are print-file pixels.
type Document struct {
	Version    int        `json:"version"`
	PrintSpace PrintSpace `json:"printSpace"`
	// Objects paint in order: later objects cover earlier ones.
	Objects []Object `json:"objects"`
}

// PrintSpace is the area of the product the design prints on.
type PrintSpace struct {
	Name      string  `json:"name,omitempty"`
	Width     int     `json:"width"`
	Height    int     `json:"height"`
	DPI       float64 `json:"dpi"`
	MinDPI    float64 `json:"minDpi"`
	PrintType int     `json:"printType"`
}

// Object is an ImageObject or a TextObject.
type Object interface {
	// ObjectID is the object's id in the document.
	ObjectID() string
	object()
}

// Object type names, the values of "type".
const (
	TypeImage = "image"
	TypeText  = "text"
)

// ImageObject is placed artwork. (X, Y) is the top-left corner of the unrotated box and the pivot of the
// rotation, exactly as a Konva node with offset 0 stores it; see renderer/raster for the full rule.
type ImageObject struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// Src is a blob key, an http(s) URL or, for the command line only, a path starting with "./" or "../"
	// relative to the document's folder; see SourceKindOf.
	Src    string  `json:"src"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// Rotation is clockwise in degrees.
	Rotation float64 `json:"rotation"`
	// IsCustom marks the buyer's image: a photo they upload or a picture they choose, placed inside
	// this box (docs/personalization.md). Src is then the seller's sample.
	IsCustom bool `json:"isCustom,omitempty"`
	// Input says how the buyer fills a custom image; nil is an uploaded photo.
	Input *Input `json:"input,omitempty"`
}

// TextObject is a line (or a few lines) of text, usually customer-editable.
type TextObject struct {
	ID         string  `json:"id"`
	Name       string  `json:"name,omitempty"`
	Text       string  `json:"text"`
	FontFamily string  `json:"fontFamily"`
	FontURL    string  `json:"fontUrl"`
	FontSize   float64 `json:"fontSize"`
	// Fill is "#rgb", "#rrggbb" or "#rrggbbaa"; required when DisplayStyle is color.
	Fill         string  `json:"fill"`
	X            float64 `json:"x"`
	Y            float64 `json:"y"`
	Width        float64 `json:"width"`
	Rotation     float64 `json:"rotation"`
	TextWidth    string  `json:"textWidth"`
	TextAlign    string  `json:"textAlign"`
	MaxLength    int     `json:"maxLength"`
	ConvertText  string  `json:"convertText"`
	DisplayStyle string  `json:"displayStyle"`
	// BackgroundURL is the image that fills the glyphs when DisplayStyle is image_background.
	BackgroundURL string `json:"backgroundUrl"`
	// IsCustom marks a text the buyer fills; Text is then the seller's sample.
	IsCustom bool `json:"isCustom"`
	// Input says how the buyer fills a custom text; nil is typed text.
	Input *Input `json:"input,omitempty"`
}

// textWidth values.
const (
	TextWidthLimited  = "limited"
	TextWidthFixed    = "fixed"
	TextWidthFlexible = "flexible"
)

// textAlign values.
const (
	AlignLeft   = "left"
	AlignCenter = "center"
	AlignRight  = "right"
)

// convertText values; ConvertNone (the empty string, or the field left out) leaves the text as typed.
const (
	ConvertNone       = ""
	ConvertCapitalize = "capitalize"
	ConvertUppercase  = "uppercase"
	ConvertLowercase  = "lowercase"
)

// displayStyle values.
const (
	DisplayColor           = "color"
	DisplayTransparent     = "transparent"
	DisplayImageBackground = "image_background"
)

// DefaultFontFamily is the font every text falls back to; it ships with the renderer.
const DefaultFontFamily = "Roboto"

// ObjectID implements Object.
func (o *ImageObject) ObjectID() string { return o.ID }
func (o *ImageObject) object()          {}

// ObjectID implements Object.
func (o *TextObject) ObjectID() string { return o.ID }
func (o *TextObject) object()          {}

// MarshalJSON writes the object with its "type" tag, so a parsed document round-trips.
func (o *ImageObject) MarshalJSON() ([]byte, error) {
	type plain ImageObject
	return json.Marshal(struct {
		Type string `json:"type"`
		*plain
	}{TypeImage, (*plain)(o)})
}

// MarshalJSON writes the object with its "type" tag, so a parsed document round-trips.
func (o *TextObject) MarshalJSON() ([]byte, error) {
	type plain TextObject
	return json.Marshal(struct {
		Type string `json:"type"`
		*plain
	}{TypeText, (*plain)(o)})
}
