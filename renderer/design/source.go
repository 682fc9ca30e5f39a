package design

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Source is a file a document reads (an image's src, a text's fontUrl or backgroundUrl) and the field
// that names it, such as "objects[2].fontUrl".
type Source struct {
	Field, Value string
}

// Sources lists the files the document reads, in paint order, with the pictures a buyer may choose
// (docs/personalization.md); fields left empty are not listed.
func (d *Document) Sources() []Source {
	var out []Source
	add := func(i int, field, value string) {
		if value != "" {
			out = append(out, Source{Field: "objects[" + strconv.Itoa(i) + "]." + field, Value: value})
		}
	}
	for i, o := range d.Objects {
		switch o := o.(type) {
		case *ImageObject:
			add(i, "src", o.Src)
			if o.Input != nil {
				for j, c := range o.Input.Options {
					add(i, "input.options["+strconv.Itoa(j)+"].src", c.Src)
				}
			}
		case *TextObject:
			add(i, "fontUrl", o.FontURL)
			add(i, "backgroundUrl", o.BackgroundURL)
		}
	}
	return out
}

// SourceKind says where an image or font source lives.
type SourceKind int

const (
	// SourceInvalid is not a usable source.
	SourceInvalid SourceKind = iota
	// SourceURL is an http or https URL.
	SourceURL
	// SourceBlobKey is a key in the blob store, e.g. "u/7/art.png".
	SourceBlobKey
	// SourceRelative is a path starting with "./" or "../", relative to the document's folder. Only the
	// command line resolves it; services refuse it.
	SourceRelative
)

func (k SourceKind) String() string {
	switch k {
	case SourceURL:
		return "url"
	case SourceBlobKey:
		return "blob key"
	case SourceRelative:
		return "relative path"
	}
	return "invalid"
}

// SourceKindOf classifies a src, fontUrl or backgroundUrl value. The rule is purely syntactic:
//
//   - "http://" or "https://" (lower case) followed by a host, without spaces or backslashes: a URL;
//   - "./" or "../" first: a path relative to the document's folder, made of slash-separated segments;
//   - otherwise a blob key: slash-separated segments of letters, digits, '.', '_', '-', '=', '@', '+' and '~',
//     none of them empty, "." or "..", not starting with '/'.
//
// Anything else (other schemes, absolute paths, backslashes, spaces, control characters) is SourceInvalid.
func SourceKindOf(s string) SourceKind {
	if s == "" || utf8.RuneCountInString(s) > MaxSourceLength {
		return SourceInvalid
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return SourceInvalid
		}
	}
	for _, scheme := range []string{"http://", "https://"} {
		if strings.HasPrefix(s, scheme) {
			rest := s[len(scheme):]
			if rest == "" || rest[0] == '/' || strings.ContainsAny(s, " \\") {
				return SourceInvalid
			}
			return SourceURL
		}
	}
	if strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") {
		if strings.Contains(s, "\\") || strings.HasSuffix(s, "/") || strings.Contains(s, "//") {
			return SourceInvalid
		}
		return SourceRelative
	}
	for _, seg := range strings.Split(s, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return SourceInvalid
		}
		for _, r := range seg {
			if !isKeyRune(r) {
				return SourceInvalid
			}
		}
	}
	return SourceBlobKey
}

func isKeyRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune("._-=@+~", r)
}
