package fonts

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// MaxFileBytes bounds a font file as uploaded, and the TrueType or OpenType file it decodes to.
const MaxFileBytes = 10 << 20

// Formats of an uploaded font file.
const (
	FormatTTF   = "ttf"
	FormatOTF   = "otf"
	FormatWOFF  = "woff"
	FormatWOFF2 = "woff2"
)

// Refusal is a font file Read refuses; its message is shown to the seller as it is.
type Refusal struct {
	msg string
	// of is the refusal this one details (ErrNoLatin for the list of missing characters).
	of *Refusal
}

func (r *Refusal) Error() string { return r.msg }

// Unwrap answers the refusal r details, so that errors.Is(err, ErrNoLatin) holds.
func (r *Refusal) Unwrap() error {
	if r.of == nil {
		return nil
	}
	return r.of
}

// Refusals of Read.
var (
	// ErrTooLarge: the file, or what it decodes to, is over MaxFileBytes.
	ErrTooLarge = &Refusal{msg: fmt.Sprintf("The font file is larger than %d MB.", MaxFileBytes>>20)}
	// ErrNotFont: the file starts like no font format Pressroom reads.
	ErrNotFont = &Refusal{msg: "The file is not a font: upload a TTF, OTF, WOFF or WOFF2 file."}
	// ErrCollection: a TrueType collection (several fonts in one file).
	ErrCollection = &Refusal{msg: "Font collections (TTC) are not accepted: upload one font per file."}
	// ErrCorrupt: the file starts like a font but its tables cannot be read.
	ErrCorrupt = &Refusal{msg: "The font file is damaged and cannot be read."}
	// ErrNoLatin is what the refusal of a font lacking a glyph for a basic Latin letter or digit
	// unwraps to; its own message names the missing characters.
	ErrNoLatin = &Refusal{msg: "The font has no glyphs for basic Latin letters and digits (A–Z, a–z, 0–9)."}
)

// basicLatin are the characters every font must draw.
const basicLatin = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// Info is what Read finds in a font file.
type Info struct {
	// Family is the font's family name (the typographic family when the font names one).
	Family string
	// Style is the subfamily name, e.g. "Regular" or "Bold Italic".
	Style string
	// FullName is the full font name, e.g. "Open Sans Bold".
	FullName string
	// Weight is the OS/2 weight class (400 regular, 700 bold); 400 when the font has no OS/2 table.
	Weight int
	// Italic tells an italic or oblique font.
	Italic bool
	// Format is the format of the file as uploaded (FormatTTF ...).
	Format string
	// Glyphs is the number of glyphs.
	Glyphs int
}

// Read checks a font file and answers what it is and its TrueType or OpenType bytes (a WOFF or WOFF2
// file decoded), which the renderer and the browser both read. It refuses, with one of the errors
// above, files over MaxFileBytes, non-fonts, collections, damaged files and fonts without glyphs for
// A–Z, a–z and 0–9; every glyph of those is loaded, so a font that reads here draws them in print.
// Read never panics on hostile input (FuzzRead).
func Read(data []byte) (info Info, out []byte, err error) {
	if len(data) > MaxFileBytes {
		return Info{}, nil, ErrTooLarge
	}
	if len(data) < 12 {
		return Info{}, nil, ErrNotFont
	}
	defer func() {
		if r := recover(); r != nil {
			info, out, err = Info{}, nil, ErrCorrupt
		}
	}()
	switch string(data[:4]) {
	case "\x00\x01\x00\x00", "true":
		info.Format, out = FormatTTF, data
	case "OTTO":
		info.Format, out = FormatOTF, data
	case "wOFF":
		info.Format = FormatWOFF
		if out, err = decodeWOFF(data); err != nil {
			return Info{}, nil, err
		}
	case "wOF2":
		info.Format = FormatWOFF2
		if out, err = decodeWOFF2(data); err != nil {
			return Info{}, nil, err
		}
	case "ttcf":
		return Info{}, nil, ErrCollection
	default:
		return Info{}, nil, ErrNotFont
	}
	if err := describe(&info, out); err != nil {
		return Info{}, nil, err
	}
	return info, out, nil
}

// describe reads names, weight and style and checks the basic Latin glyphs.
func describe(info *Info, data []byte) error {
	f, err := sfnt.Parse(data)
	if err != nil {
		return ErrCorrupt
	}
	var buf sfnt.Buffer
	name := func(ids ...sfnt.NameID) string {
		for _, id := range ids {
			if s, err := f.Name(&buf, id); err == nil && strings.TrimSpace(s) != "" {
				return strings.TrimSpace(s)
			}
		}
		return ""
	}
	info.Family = name(sfnt.NameIDTypographicFamily, sfnt.NameIDFamily)
	info.Style = name(sfnt.NameIDTypographicSubfamily, sfnt.NameIDSubfamily)
	info.FullName = name(sfnt.NameIDFull)
	if info.Family == "" {
		return ErrCorrupt
	}
	if info.Style == "" {
		info.Style = "Regular"
	}
	if info.FullName == "" {
		info.FullName = info.Family + " " + info.Style
	}
	info.Glyphs = f.NumGlyphs()
	var missing []string
	for _, r := range basicLatin {
		idx, err := f.GlyphIndex(&buf, r)
		if err != nil {
			return ErrCorrupt
		}
		if idx == 0 {
			missing = append(missing, string(r))
			continue
		}
		if _, err := f.LoadGlyph(&buf, idx, fixed.I(int(f.UnitsPerEm())), nil); err != nil {
			return ErrCorrupt
		}
	}
	if len(missing) > 0 {
		return &Refusal{msg: "The font has no glyphs for basic Latin letters and digits (A–Z, a–z, 0–9): " +
			strings.Join(missing, " ") + " missing.", of: ErrNoLatin}
	}
	info.Weight, info.Italic = 400, strings.Contains(strings.ToLower(info.Style), "italic") ||
		strings.Contains(strings.ToLower(info.Style), "oblique")
	if os2 := table(data, "OS/2"); len(os2) >= 64 {
		if w := int(binary.BigEndian.Uint16(os2[4:])); w >= 1 && w <= 1000 {
			info.Weight = w
		}
		info.Italic = info.Italic || binary.BigEndian.Uint16(os2[62:])&1 != 0
	}
	return nil
}

// table answers the bytes of an sfnt table, or nil.
func table(data []byte, tag string) []byte {
	if len(data) < 12 {
		return nil
	}
	n := int(binary.BigEndian.Uint16(data[4:]))
	for i := range n {
		rec := 12 + 16*i
		if rec+16 > len(data) {
			return nil
		}
		if string(data[rec:rec+4]) != tag {
			continue
		}
		off, length := uint64(binary.BigEndian.Uint32(data[rec+8:])), uint64(binary.BigEndian.Uint32(data[rec+12:]))
		if off+length > uint64(len(data)) {
			return nil
		}
		return data[off : off+length]
	}
	return nil
}

// sfntTable is one table of a font being assembled.
type sfntTable struct {
	tag  string
	data []byte
}

// assemble writes an sfnt file of tables (in the order given, which must be sorted by tag).
func assemble(flavor uint32, tables []sfntTable) ([]byte, error) {
	n := len(tables)
	size := 12 + 16*n
	for _, t := range tables {
		size += (len(t.data) + 3) &^ 3
	}
	if size > MaxFileBytes {
		return nil, ErrTooLarge
	}
	out := make([]byte, 12+16*n, size)
	binary.BigEndian.PutUint32(out[0:], flavor)
	binary.BigEndian.PutUint16(out[4:], uint16(n))
	es := 0
	for 1<<(es+1) <= n {
		es++
	}
	binary.BigEndian.PutUint16(out[6:], uint16(16<<es))
	binary.BigEndian.PutUint16(out[8:], uint16(es))
	binary.BigEndian.PutUint16(out[10:], uint16(16*n-16<<es))
	for i, t := range tables {
		rec := out[12+16*i:]
		copy(rec[0:4], t.tag)
		binary.BigEndian.PutUint32(rec[4:], checksum(t.data))
		binary.BigEndian.PutUint32(rec[8:], uint32(len(out)))
		binary.BigEndian.PutUint32(rec[12:], uint32(len(t.data)))
		out = append(out, t.data...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	return out, nil
}

func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}

// decodeWOFF turns a WOFF 1 file into its sfnt: every table is zlib-compressed or stored.
func decodeWOFF(data []byte) ([]byte, error) {
	if len(data) < 44 {
		return nil, ErrCorrupt
	}
	flavor := binary.BigEndian.Uint32(data[4:])
	n := int(binary.BigEndian.Uint16(data[12:]))
	if n == 0 || 44+20*n > len(data) {
		return nil, ErrCorrupt
	}
	tables := make([]sfntTable, 0, n)
	total := 0
	for i := range n {
		e := data[44+20*i:]
		tag := string(e[0:4])
		off, comp, orig := uint64(binary.BigEndian.Uint32(e[4:])), uint64(binary.BigEndian.Uint32(e[8:])), uint64(binary.BigEndian.Uint32(e[12:]))
		if off+comp > uint64(len(data)) || comp > orig {
			return nil, ErrCorrupt
		}
		if total += int(orig); orig > MaxFileBytes || total > MaxFileBytes {
			return nil, ErrTooLarge
		}
		raw := data[off : off+comp]
		if comp < orig {
			zr, err := zlib.NewReader(bytes.NewReader(raw))
			if err != nil {
				return nil, ErrCorrupt
			}
			dec := make([]byte, orig)
			if _, err := io.ReadFull(zr, dec); err != nil {
				return nil, ErrCorrupt
			}
			raw = dec
		}
		if i > 0 && tag <= tables[i-1].tag {
			return nil, ErrCorrupt
		}
		tables = append(tables, sfntTable{tag: tag, data: raw})
	}
	return assemble(flavor, tables)
}
