package svgdoc

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// Namespaces an element or attribute of the drawing may be in.
const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
)

// elem is an element of the file kept for the next steps: an allow-listed SVG element with its
// allow-listed attributes.
type elem struct {
	name     string
	id       string
	attrs    map[string]string
	classes  []string
	style    string
	children []*elem
}

// Element kinds, by what reading does with them.
var (
	// kept are the elements the clean copy is made of (a is read as a group).
	kept = set("svg", "g", "a", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "defs", "use",
		"linearGradient", "radialGradient", "stop", "style")
	// dropped never paint; their content is skipped.
	dropped    = set("title", "desc", "metadata")
	animations = set("animate", "animateColor", "animateMotion", "animateTransform", "set", "mpath", "discard")
	// attributes kept on kept elements (no namespace, or the SVG one; href also in xlink's).
	keptAttrs = set("transform", "d", "points", "x", "y", "width", "height", "rx", "ry", "cx", "cy", "r", "fx", "fy",
		"x1", "y1", "x2", "y2", "offset", "gradientUnits", "gradientTransform", "spreadMethod", "viewBox")
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// reader turns the file into the tree of kept elements, refusing on the way what must be refused.
type reader struct {
	root  *elem
	sheet strings.Builder
	count int
}

func read(data []byte) (*reader, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	r := &reader{}
	// stack holds the open elements; nil for one skipped (dropped, or of another namespace).
	var stack []*elem
	skipping := 0 // the depth where skipping began, 0 when not skipping
	inStyle := false
	closed := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, r.syntaxError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if closed {
				return nil, Refuse(ErrMalformed, "The SVG file is damaged: it holds more than one root element.")
			}
			r.count++
			if len(stack)+1 > MaxDepth {
				return nil, Refuse(ErrTooDeep, "The SVG nests its elements more than %d deep.", MaxDepth)
			}
			if r.count > MaxElements {
				return nil, tooMany()
			}
			if err := checkAnywhere(t); err != nil {
				return nil, err
			}
			if r.root == nil && (t.Name.Local != "svg" || !inSVG(t.Name.Space)) {
				return nil, notSVG()
			}
			e, err := r.start(t, len(stack) == 0, skipping > 0)
			if err != nil {
				return nil, err
			}
			if e == nil && skipping == 0 {
				skipping = len(stack) + 1
			}
			if e != nil {
				if len(stack) == 0 {
					r.root = e
				} else {
					parent := stack[len(stack)-1]
					parent.children = append(parent.children, e)
				}
			}
			inStyle = e != nil && e.name == "style"
			stack = append(stack, e)
		case xml.EndElement:
			if skipping == len(stack) {
				skipping = 0
			}
			stack = stack[:len(stack)-1]
			inStyle = false
			closed = len(stack) == 0
		case xml.CharData:
			if inStyle {
				r.sheet.Write(t)
				r.sheet.WriteByte('\n')
			}
		case xml.Directive:
			d := strings.TrimSpace(string(t))
			if !strings.HasPrefix(strings.ToUpper(d), "DOCTYPE") || strings.ContainsAny(d, "[<") ||
				strings.Contains(strings.ToUpper(d), "ENTITY") {
				return nil, entities()
			}
			// A plain DOCTYPE naming the SVG DTD: nothing is ever fetched, so it is simply dropped.
		case xml.ProcInst:
			if t.Target == "xml-stylesheet" {
				return nil, Refuse(ErrExternal, "The SVG links a style sheet (<?xml-stylesheet?>), which is not accepted: "+
					"a clipart must hold everything it draws.")
			}
		}
	}
	if r.root == nil {
		return nil, notSVG()
	}
	return r, nil
}

func notSVG() error {
	return Refuse(ErrNotSVG, "The file is not an SVG image: its first element must be <svg>.")
}

func entities() error {
	return Refuse(ErrEntities, "The SVG declares entities or other DTD content (<!DOCTYPE … [ … ]>), which is not accepted.")
}

func tooMany() error {
	return Refuse(ErrTooMany, "The SVG has more than %d elements (counting the copies its <use> elements make).", MaxElements)
}

// syntaxError names what encoding/xml refused.
func (r *reader) syntaxError(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "CharsetReader"):
		return Refuse(ErrEncoding, "The SVG file must be encoded in UTF-8.")
	case strings.Contains(msg, "entity"):
		return entities()
	case r.root == nil:
		return notSVG()
	case strings.Contains(msg, "invalid UTF-8"):
		return Refuse(ErrEncoding, "The SVG file must be encoded in UTF-8.")
	}
	return Refuse(ErrMalformed, "The SVG file is damaged: it is not well-formed XML (%s).", strings.TrimPrefix(msg, "XML syntax error "))
}

func inSVG(space string) bool { return space == "" || space == svgNS }

// checkAnywhere refuses, in any namespace and even where the element would be dropped, what must
// never be in a clipart: scripts, HTML islands and event handlers.
func checkAnywhere(t xml.StartElement) error {
	switch strings.ToLower(t.Name.Local) {
	case "script", "handler":
		return Refuse(ErrScript, "The SVG contains a script (<%s>), which is not accepted.", t.Name.Local)
	case "foreignobject":
		return Refuse(ErrForeignObject, "The SVG contains a <foreignObject> (a web page inside the drawing), which is not accepted.")
	case "iframe", "object", "embed":
		return Refuse(ErrForeignObject, "The SVG contains <%s> (a web page inside the drawing), which is not accepted.", t.Name.Local)
	}
	for _, a := range t.Attr {
		if a.Name.Space == "xmlns" || a.Name.Local == "xmlns" {
			continue
		}
		if n := strings.ToLower(a.Name.Local); len(n) > 2 && strings.HasPrefix(n, "on") {
			return Refuse(ErrEventHandler, "The SVG contains an event handler (%s), which is not accepted.", a.Name.Local)
		}
	}
	return nil
}

// start reads an element: nil (without error) when it is skipped. Inside a skipped element
// everything is skipped.
func (r *reader) start(t xml.StartElement, isRoot, skipping bool) (*elem, error) {
	name := t.Name.Local
	if skipping || !inSVG(t.Name.Space) || dropped[name] {
		return nil, nil
	}
	switch {
	case name == "svg" && !isRoot:
		return nil, unsupported("svg")
	case animations[name]:
		return nil, Refuse(ErrAnimation, "The SVG contains an animation (<%s>), which is not accepted.", name)
	case !kept[name]:
		// image is refused here after its href: an image of another file refers outside.
		if name == "image" {
			if err := checkHrefs(t); err != nil && !isData(t) {
				return nil, err
			}
		}
		return nil, unsupported(name)
	}
	e := &elem{name: name, attrs: map[string]string{}}
	if name == "a" {
		e.name = "g"
	}
	for _, a := range t.Attr {
		if err := checkURLs(a.Value); err != nil {
			return nil, err
		}
		if a.Name.Local == "href" && (inSVG(a.Name.Space) || a.Name.Space == xlinkNS) {
			v := strings.TrimSpace(a.Value)
			if !strings.HasPrefix(v, "#") {
				return nil, external(a.Name.Local + "=" + quote(v))
			}
			if name != "a" {
				e.attrs["href"] = v[1:]
			}
			continue
		}
		if !inSVG(a.Name.Space) {
			continue
		}
		switch l := a.Name.Local; {
		case l == "id":
			e.id = strings.TrimSpace(a.Value)
		case l == "class":
			e.classes = strings.Fields(a.Value)
		case l == "style":
			e.style = a.Value
		case keptAttrs[l] || properties[l]:
			e.attrs[l] = strings.TrimSpace(a.Value)
		}
	}
	return e, nil
}

// checkHrefs refuses an href that points outside the file.
func checkHrefs(t xml.StartElement) error {
	for _, a := range t.Attr {
		if a.Name.Local == "href" && !strings.HasPrefix(strings.TrimSpace(a.Value), "#") {
			return external(a.Name.Local + "=" + quote(strings.TrimSpace(a.Value)))
		}
	}
	return nil
}

// isData tells an element whose href is a data: address (an embedded file).
func isData(t xml.StartElement) bool {
	for _, a := range t.Attr {
		if a.Name.Local == "href" && strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.Value)), "data:") {
			return true
		}
	}
	return false
}

func external(what string) error {
	return Refuse(ErrExternal, "The SVG refers to something outside itself (%s), which is not accepted: "+
		"a clipart may only refer to its own parts (#id).", what)
}

// checkURLs refuses a url(...) in an attribute or a style sheet that is not #id.
func checkURLs(v string) error {
	lower := strings.ToLower(v)
	for i := strings.Index(lower, "url("); i >= 0; {
		rest := strings.TrimLeft(v[i+4:], " \t\r\n'\"")
		if !strings.HasPrefix(rest, "#") {
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				end = len(rest)
			}
			return external("url(" + quote(strings.TrimRight(rest[:end], "'\" ")) + ")")
		}
		next := strings.Index(lower[i+4:], "url(")
		if next < 0 {
			break
		}
		i += 4 + next
	}
	if strings.Contains(lower, "@import") {
		return external("@import")
	}
	return nil
}
