package design

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// fillPattern is the colour format of "fill"; the schema uses the same expression.
var fillPattern = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$`)

// Parse reads and validates a design document. On any problem it returns a *ValidationError listing every
// problem found (errors.Is(err, ErrInvalid) holds); the document is returned only when it is valid. Optional
// fields are filled with their defaults: fontFamily "Roboto", textAlign "left", maxLength 16.
func Parse(data []byte) (*Document, error) {
	p := &parser{}
	if len(data) > MaxDocumentBytes {
		p.add("", "document is %d bytes, larger than the limit of %d", len(data), MaxDocumentBytes)
		return nil, p.err()
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		p.add("", "not valid JSON: %s", jsonErrorText(err, dec))
		return nil, p.err()
	}
	if _, err := dec.Token(); err != io.EOF {
		p.add("", "not valid JSON: unexpected data after the document at offset %d", dec.InputOffset())
		return nil, p.err()
	}
	doc := p.document(raw)
	if len(p.problems) > 0 {
		return nil, p.err()
	}
	return doc, nil
}

func jsonErrorText(err error, dec *json.Decoder) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("%s at offset %d", syn.Error(), syn.Offset)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of input"
	}
	return err.Error()
}

type parser struct {
	problems []Problem
	// printHeight is the print space's height once read (0 before or when invalid): no line of text is taller.
	printHeight float64
}

func (p *parser) add(field, format string, args ...any) {
	p.problems = append(p.problems, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) err() error {
	return &ValidationError{Problems: p.problems}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// kindOf names the JSON type of a raw value as JSON Schema does.
func kindOf(raw json.RawMessage) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// fields is one JSON object being read; every key read is marked so the rest can be reported as unknown.
type fields struct {
	p    *parser
	path string
	keys []string
	vals map[string]json.RawMessage
	used map[string]bool
}

// object reads raw as a JSON object, reporting duplicate keys.
func (p *parser) object(path string, raw json.RawMessage) (*fields, bool) {
	if k := kindOf(raw); k != "object" {
		p.add(path, "want object, got %s", k)
		return nil, false
	}
	f := &fields{p: p, path: path, vals: map[string]json.RawMessage{}, used: map[string]bool{}}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // '{'
		p.add(path, "not valid JSON: %v", err)
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			p.add(path, "not valid JSON: %v", err)
			return nil, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			p.add(join(path, key), "not valid JSON: %v", err)
			return nil, false
		}
		if _, dup := f.vals[key]; dup {
			p.add(join(path, key), "duplicate field")
			continue
		}
		f.keys = append(f.keys, key)
		f.vals[key] = v
	}
	return f, true
}

func (f *fields) field(key string) string { return join(f.path, key) }

// get returns the raw value of key and marks it known; a missing required key is reported.
func (f *fields) get(key string, required bool) (json.RawMessage, bool) {
	f.used[key] = true
	v, ok := f.vals[key]
	if !ok && required {
		f.p.add(f.field(key), "required")
	}
	return v, ok
}

func (f *fields) has(key string) bool {
	_, ok := f.vals[key]
	return ok
}

// str reads a string; ok is false when it is missing or not a string.
func (f *fields) str(key string, required bool) (string, bool) {
	raw, present := f.get(key, required)
	if !present {
		return "", false
	}
	if k := kindOf(raw); k != "string" {
		f.p.add(f.field(key), "want string, got %s", k)
		return "", false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		f.p.add(f.field(key), "not a valid string: %v", err)
		return "", false
	}
	return s, true
}

// number reads a finite number.
func (f *fields) number(key string, required bool) (float64, bool) {
	raw, present := f.get(key, required)
	if !present {
		return 0, false
	}
	if k := kindOf(raw); k != "number" {
		f.p.add(f.field(key), "want number, got %s", k)
		return 0, false
	}
	v, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		f.p.add(f.field(key), "number out of range")
		return 0, false
	}
	return v, true
}

// integer reads a number with no fractional part (4500 and 4500.0 alike, as JSON Schema's "integer").
func (f *fields) integer(key string, required bool) (float64, bool) {
	raw, present := f.vals[key]
	if present && kindOf(raw) != "number" {
		f.get(key, required)
		f.p.add(f.field(key), "want integer, got %s", kindOf(raw))
		return 0, false
	}
	v, ok := f.number(key, required)
	if !ok {
		return 0, false
	}
	if v != math.Trunc(v) {
		f.p.add(f.field(key), "want integer, got %s", strings.TrimSpace(string(raw)))
		return 0, false
	}
	return v, true
}

func (f *fields) boolean(key string, required bool) (bool, bool) {
	raw, present := f.get(key, required)
	if !present {
		return false, false
	}
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	f.p.add(f.field(key), "want boolean, got %s", kindOf(raw))
	return false, false
}

// inRange reports v outside [lo, hi].
func (f *fields) inRange(key string, v, lo, hi float64) bool {
	if v < lo || v > hi {
		f.p.add(f.field(key), "must be between %s and %s, got %s", num(lo), num(hi), num(v))
		return false
	}
	return true
}

// positive reports v outside (0, hi].
func (f *fields) positive(key string, v, hi float64) bool {
	if v <= 0 || v > hi {
		f.p.add(f.field(key), "must be greater than 0 and at most %s, got %s", num(hi), num(v))
		return false
	}
	return true
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// oneOf checks an enumeration value and names the allowed ones.
func (f *fields) oneOf(key, v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	named := make([]string, 0, len(allowed))
	for _, a := range allowed {
		if a != "" {
			named = append(named, a)
		}
	}
	want := strings.Join(named[:len(named)-1], ", ") + " or " + named[len(named)-1]
	if len(named) == 1 {
		want = named[0]
	}
	f.p.add(f.field(key), "unknown value %q (want %s)", v, want)
	return false
}

// shortString checks an identifier-like string: required ones must not be empty.
func (f *fields) shortString(key string, required bool) string {
	s, ok := f.str(key, required)
	if !ok {
		return ""
	}
	if required && s == "" {
		f.p.add(f.field(key), "must not be empty")
	}
	if n := utf8.RuneCountInString(s); n > MaxIDLength {
		f.p.add(f.field(key), "%d characters, longer than %d", n, MaxIDLength)
	}
	return s
}

// source checks a src-like value; empty is allowed when not required.
func (f *fields) source(key string, required bool) string {
	s, ok := f.str(key, required)
	if !ok {
		return ""
	}
	if s == "" {
		if required {
			f.p.add(f.field(key), "must not be empty")
		}
		return ""
	}
	if SourceKindOf(s) == SourceInvalid {
		f.p.add(f.field(key), "not a blob key, an http(s) URL or a path starting with ./ or ../")
	}
	return s
}

// unknown reports every key that was never read.
func (f *fields) unknown() {
	for _, k := range f.keys {
		if !f.used[k] {
			f.p.add(f.field(k), "unknown field")
		}
	}
}

func (p *parser) document(raw json.RawMessage) *Document {
	root, ok := p.object("", raw)
	if !ok {
		return nil
	}
	doc := &Document{}
	if v, ok := root.integer("version", true); ok {
		if v != Version {
			p.add("version", "unsupported version %s (want %d)", num(v), Version)
		}
		doc.Version = int(v)
	}
	if rawPS, ok := root.get("printSpace", true); ok {
		p.printSpace(rawPS, &doc.PrintSpace)
	}
	if rawObjs, ok := root.get("objects", true); ok {
		doc.Objects = p.objects(rawObjs)
	}
	root.unknown()
	return doc
}

func (p *parser) printSpace(raw json.RawMessage, ps *PrintSpace) {
	f, ok := p.object("printSpace", raw)
	if !ok {
		return
	}
	ps.Name = f.shortString("name", false)
	if v, ok := f.integer("width", true); ok && f.inRange("width", v, 1, MaxPrintSize) {
		ps.Width = int(v)
	}
	if v, ok := f.integer("height", true); ok && f.inRange("height", v, 1, MaxPrintSize) {
		ps.Height = int(v)
		p.printHeight = v
	}
	dpiOK := false
	if v, ok := f.number("dpi", true); ok && f.inRange("dpi", v, 1, MaxDPI) {
		ps.DPI, dpiOK = v, true
	}
	if v, ok := f.number("minDpi", true); ok && f.inRange("minDpi", v, 1, MaxDPI) {
		ps.MinDPI = v
		if dpiOK && v > ps.DPI {
			p.add("printSpace.minDpi", "must not exceed dpi (%s), got %s", num(ps.DPI), num(v))
		}
	}
	if v, ok := f.integer("printType", false); ok && f.inRange("printType", v, 0, MaxPrintType) {
		ps.PrintType = int(v)
	}
	f.unknown()
}

func (p *parser) objects(raw json.RawMessage) []Object {
	if k := kindOf(raw); k != "array" {
		p.add("objects", "want array, got %s", k)
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		p.add("objects", "not valid JSON: %v", err)
		return nil
	}
	if len(items) > MaxObjects {
		p.add("objects", "%d objects, more than %d", len(items), MaxObjects)
	}
	objs := make([]Object, 0, len(items))
	texts := 0
	for i, item := range items {
		path := fmt.Sprintf("objects[%d]", i)
		f, ok := p.object(path, item)
		if !ok {
			continue
		}
		typ, ok := f.str("type", true)
		if !ok {
			continue
		}
		switch typ {
		case TypeImage:
			objs = append(objs, f.image())
		case TypeText:
			texts++
			objs = append(objs, f.text())
		default:
			f.oneOf("type", typ, TypeImage, TypeText)
			continue // the other fields mean nothing without a type
		}
		f.unknown()
	}
	if texts > MaxTexts {
		p.add("objects", "%d text objects, more than %d per print space", texts, MaxTexts)
	}
	return objs
}

// placement reads x, y and rotation, shared by both object types.
func (f *fields) placement() (x, y, rotation float64) {
	if v, ok := f.number("x", true); ok && f.inRange("x", v, -MaxCoordinate, MaxCoordinate) {
		x = v
	}
	if v, ok := f.number("y", true); ok && f.inRange("y", v, -MaxCoordinate, MaxCoordinate) {
		y = v
	}
	if v, ok := f.number("rotation", false); ok && f.inRange("rotation", v, -MaxRotation, MaxRotation) {
		rotation = v
	}
	return x, y, rotation
}

func (f *fields) image() *ImageObject {
	o := &ImageObject{}
	o.ID = f.shortString("id", true)
	o.Name = f.shortString("name", false)
	o.Src = f.source("src", true)
	o.X, o.Y, o.Rotation = f.placement()
	if v, ok := f.number("width", true); ok && f.positive("width", v, MaxCoordinate) {
		o.Width = v
	}
	if v, ok := f.number("height", true); ok && f.positive("height", v, MaxCoordinate) {
		o.Height = v
	}
	if v, ok := f.boolean("isCustom", false); ok {
		o.IsCustom = v
	}
	o.Input = f.input(o.IsCustom, true, 0)
	return o
}

func (f *fields) text() *TextObject {
	o := &TextObject{FontFamily: DefaultFontFamily, TextAlign: AlignLeft, MaxLength: MaxTextLength}
	o.ID = f.shortString("id", true)
	o.Name = f.shortString("name", false)
	text, textOK := f.str("text", true)
	if textOK {
		for _, r := range text {
			if (r < 0x20 && r != '\n') || r == 0x7f {
				f.p.add(f.field("text"), "control character %U not allowed (only line feeds)", r)
				textOK = false
				break
			}
		}
		o.Text = text
	}
	if s := f.shortString("fontFamily", false); s != "" {
		o.FontFamily = s
	}
	o.FontURL = f.source("fontUrl", false)
	if v, ok := f.number("fontSize", true); ok && f.inRange("fontSize", v, MinFontSize, MaxFontSize) {
		// A line taller than the print space could only be drawn outside it.
		if h := f.p.printHeight; h > 0 && v > h {
			f.p.add(f.field("fontSize"), "must be at most the print space's height (%s), got %s", num(h), num(v))
		}
		o.FontSize = v
	}
	o.X, o.Y, o.Rotation = f.placement()
	if v, ok := f.number("width", true); ok && f.positive("width", v, MaxCoordinate) {
		o.Width = v
	}
	if s, ok := f.str("textWidth", true); ok && f.oneOf("textWidth", s, TextWidthLimited, TextWidthFixed, TextWidthFlexible) {
		o.TextWidth = s
	}
	if s, ok := f.str("textAlign", false); ok && f.oneOf("textAlign", s, AlignLeft, AlignCenter, AlignRight) {
		o.TextAlign = s
	}
	maxLenOK := true
	if v, ok := f.integer("maxLength", false); ok {
		if maxLenOK = f.inRange("maxLength", v, 1, MaxTextLength); maxLenOK {
			o.MaxLength = int(v)
		}
	}
	if textOK && maxLenOK {
		if n := utf8.RuneCountInString(o.Text); n > o.MaxLength {
			f.p.add(f.field("text"), "%d characters, longer than maxLength %d", n, o.MaxLength)
		}
	}
	if s, ok := f.str("convertText", false); ok && f.oneOf("convertText", s, ConvertNone, ConvertCapitalize, ConvertUppercase, ConvertLowercase) {
		o.ConvertText = s
	}
	style, styleOK := f.str("displayStyle", true)
	if styleOK && f.oneOf("displayStyle", style, DisplayColor, DisplayTransparent, DisplayImageBackground) {
		o.DisplayStyle = style
	}
	if fill, ok := f.str("fill", o.DisplayStyle == DisplayColor); ok {
		switch {
		case fill == "" && o.DisplayStyle == DisplayColor:
			f.p.add(f.field("fill"), "required when displayStyle is color")
		case fill != "" && !fillPattern.MatchString(fill):
			f.p.add(f.field("fill"), "%q is not a colour (want #rgb, #rrggbb or #rrggbbaa)", fill)
		default:
			o.Fill = fill
		}
	}
	needBG := o.DisplayStyle == DisplayImageBackground
	o.BackgroundURL = f.source("backgroundUrl", false)
	if needBG && o.BackgroundURL == "" && (!f.has("backgroundUrl") || kindOf(f.vals["backgroundUrl"]) == "string") {
		f.p.add(f.field("backgroundUrl"), "required when displayStyle is image_background")
	}
	if v, ok := f.boolean("isCustom", false); ok {
		o.IsCustom = v
	}
	o.Input = f.input(o.IsCustom, false, o.MaxLength)
	return o
}

// input reads an object's "input" (docs/personalization.md): only a custom object has one; an image
// takes the kinds image and dropdown, a text text and dropdown. maxLength bounds a text's choices.
func (f *fields) input(custom, image bool, maxLength int) *Input {
	raw, ok := f.get("input", false)
	if !ok {
		return nil
	}
	if !custom {
		f.p.add(f.field("input"), "only an object with isCustom true has an input")
		return nil
	}
	g, ok := f.p.object(f.field("input"), raw)
	if !ok {
		return nil
	}
	in := &Input{}
	kinds := []string{InputText, InputDropdown}
	if image {
		kinds = []string{InputImage, InputDropdown}
	}
	if s, ok := g.str("kind", true); ok && g.oneOf("kind", s, kinds...) {
		in.Kind = s
	}
	in.Label = g.shortString("label", false)
	if v, ok := g.boolean("required", false); ok {
		in.Required = v
	}
	if s, ok := g.str("charset", false); ok {
		if image || in.Kind != InputText {
			g.p.add(g.field("charset"), "only typed text has a charset")
		} else if g.oneOf("charset", s, CharsetAny, CharsetLetters, CharsetAlphanumeric, CharsetDigits) {
			in.Charset = s
		}
	}
	rawOpts, has := g.get("options", in.Kind == InputDropdown)
	switch {
	case has && in.Kind != InputDropdown:
		g.p.add(g.field("options"), "only a dropdown has options")
	case has:
		in.Options = g.choices(rawOpts, image, maxLength)
	}
	g.unknown()
	return in
}

// choices reads a dropdown's options: texts with a value of at most maxLength characters, or images
// with a source and their natural size.
func (f *fields) choices(raw json.RawMessage, image bool, maxLength int) []Choice {
	path := f.field("options")
	if k := kindOf(raw); k != "array" {
		f.p.add(path, "want array, got %s", k)
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		f.p.add(path, "not valid JSON: %v", err)
		return nil
	}
	if len(items) == 0 || len(items) > MaxChoices {
		f.p.add(path, "%d options, want 1 to %d", len(items), MaxChoices)
		return nil
	}
	out := make([]Choice, 0, len(items))
	for i, item := range items {
		g, ok := f.p.object(fmt.Sprintf("%s[%d]", path, i), item)
		if !ok {
			continue
		}
		c := Choice{Label: g.shortString("label", true)}
		if image {
			c.Src = g.source("src", true)
			if v, ok := g.integer("width", true); ok && g.positive("width", v, MaxChoicePixels) {
				c.Width = int(v)
			}
			if v, ok := g.integer("height", true); ok && g.positive("height", v, MaxChoicePixels) {
				c.Height = int(v)
			}
		} else if v, ok := g.str("value", true); ok {
			if msg := checkTyped(v, CharsetAny, maxLength, false); msg != "" && v != "" {
				g.p.add(g.field("value"), "%s", msg)
			} else if v == "" {
				g.p.add(g.field("value"), "must not be empty")
			}
			c.Value = v
		}
		g.unknown()
		out = append(out, c)
	}
	return out
}
