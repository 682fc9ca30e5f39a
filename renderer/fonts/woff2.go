package fonts

import (
	"bytes"
	"encoding/binary"
	"io"
	"slices"

	"github.com/andybalholm/brotli"
)

// WOFF2 (W3C WOFF File Format 2.0): one brotli stream holds every table; glyf and loca usually come
// transformed (split into streams, points as triplets) and hmtx may. decodeWOFF2 rebuilds the TrueType
// or OpenType tables. Every length is checked against the header and MaxFileBytes before it is used.

// woff2Tags are the tags of the table directory's known-tag indexes.
var woff2Tags = [63]string{"cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post", "cvt ", "fpgm", "glyf",
	"loca", "prep", "CFF ", "VORG", "EBDT", "EBLC", "gasp", "hdmx", "kern", "LTSH", "PCLT", "VDMX", "vhea", "vmtx",
	"BASE", "GDEF", "GPOS", "GSUB", "EBSC", "JSTF", "MATH", "CBDT", "CBLC", "COLR", "CPAL", "SVG ", "sbix", "acnt",
	"avar", "bdat", "bloc", "bsln", "cvar", "fdsc", "feat", "fmtx", "fvar", "gvar", "hsty", "just", "lcar", "mort",
	"morx", "opbd", "prop", "trak", "Zapf", "Silf", "Glat", "Gloc", "Feat", "Sill"}

// errWOFF2 is any malformed WOFF2 structure; Read answers ErrCorrupt.
var errWOFF2 = ErrCorrupt

// reader reads big-endian values from a stream, remembering the first failure.
type reader struct {
	b   []byte
	err bool
}

func (r *reader) take(n int) []byte {
	if r.err || n < 0 || n > len(r.b) {
		r.err = true
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u8() int {
	b := r.take(1)
	if b == nil {
		return 0
	}
	return int(b[0])
}

func (r *reader) u16() int {
	b := r.take(2)
	if b == nil {
		return 0
	}
	return int(binary.BigEndian.Uint16(b))
}

func (r *reader) i16() int { return int(int16(r.u16())) }

func (r *reader) u32() uint32 {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint32(b)
}

// base128 reads a UIntBase128.
func (r *reader) base128() uint32 {
	var v uint32
	for i := range 5 {
		b := r.u8()
		if r.err || (i == 0 && b == 0x80) || v&0xfe000000 != 0 {
			r.err = true
			return 0
		}
		v = v<<7 | uint32(b&0x7f)
		if b&0x80 == 0 {
			return v
		}
	}
	r.err = true
	return 0
}

// u255 reads a 255UInt16.
func (r *reader) u255() int {
	switch code := r.u8(); code {
	case 253:
		return r.u16()
	case 254:
		return r.u8() + 253*2
	case 255:
		return r.u8() + 253
	default:
		return code
	}
}

type woff2Entry struct {
	tag                     string
	origLen, transformedLen uint32
	transformed             bool
}

func decodeWOFF2(data []byte) ([]byte, error) {
	r := &reader{b: data}
	r.take(4)
	flavor := r.u32()
	r.take(4) // length
	n := r.u16()
	r.take(2)
	r.u32() // totalSfntSize
	compressed := r.u32()
	r.take(4 + 20)                               // versions, metadata and private blocks
	if r.err || n == 0 || flavor == 0x74746366 { // ttcf
		if flavor == 0x74746366 {
			return nil, ErrCollection
		}
		return nil, errWOFF2
	}
	entries := make([]woff2Entry, n)
	var total uint64
	for i := range entries {
		flags := r.u8()
		e := &entries[i]
		if idx := flags & 0x3f; idx == 63 {
			e.tag = string(r.take(4))
		} else {
			e.tag = woff2Tags[idx]
		}
		version := flags >> 6
		e.origLen = r.base128()
		if e.tag == "glyf" || e.tag == "loca" {
			e.transformed = version == 0
		} else {
			e.transformed = version != 0
		}
		e.transformedLen = e.origLen
		if e.transformed {
			e.transformedLen = r.base128()
		}
		total += uint64(e.transformedLen)
		if r.err || uint64(e.origLen) > MaxFileBytes || total > MaxFileBytes {
			if r.err {
				return nil, errWOFF2
			}
			return nil, ErrTooLarge
		}
	}
	src := r.take(int(compressed))
	if r.err {
		return nil, errWOFF2
	}
	stream := make([]byte, total)
	br := brotli.NewReader(bytes.NewReader(src))
	if _, err := io.ReadFull(br, stream); err != nil {
		return nil, errWOFF2
	}
	if extra, _ := br.Read(make([]byte, 1)); extra != 0 {
		return nil, errWOFF2
	}
	raw := map[string][]byte{}
	byTag := map[string]*woff2Entry{}
	off := 0
	for i := range entries {
		e := &entries[i]
		if _, dup := raw[e.tag]; dup {
			return nil, errWOFF2
		}
		raw[e.tag] = stream[off : off+int(e.transformedLen)]
		byTag[e.tag] = e
		off += int(e.transformedLen)
	}
	tables := map[string][]byte{}
	for tag, b := range raw {
		tables[tag] = b
	}
	var xMins []int
	if g := byTag["glyf"]; g != nil && g.transformed {
		l := byTag["loca"]
		if l == nil || !l.transformed {
			return nil, errWOFF2
		}
		glyf, loca, mins, err := rebuildGlyf(raw["glyf"])
		if err != nil {
			return nil, err
		}
		// The rebuilt glyf stores points plainly, so it may be larger than the original; loca must match.
		if uint32(len(loca)) != l.origLen {
			return nil, errWOFF2
		}
		tables["glyf"], tables["loca"], xMins = glyf, loca, mins
	} else if l := byTag["loca"]; l != nil && l.transformed {
		return nil, errWOFF2
	}
	if h := byTag["hmtx"]; h != nil && h.transformed {
		hmtx, err := rebuildHmtx(raw["hmtx"], tables["hhea"], xMins, h.origLen)
		if err != nil {
			return nil, err
		}
		tables["hmtx"] = hmtx
	}
	list := make([]sfntTable, 0, len(tables))
	for tag, b := range tables {
		list = append(list, sfntTable{tag: tag, data: b})
	}
	slices.SortFunc(list, func(a, b sfntTable) int { return bytes.Compare([]byte(a.tag), []byte(b.tag)) })
	return assemble(flavor, list)
}

// rebuildGlyf turns a transformed glyf table back into glyf and loca, and answers each glyph's xMin
// (for a transformed hmtx).
func rebuildGlyf(b []byte) (glyf, loca []byte, xMins []int, err error) {
	h := &reader{b: b}
	h.take(2)
	options := h.u16()
	numGlyphs := h.u16()
	indexFormat := h.u16()
	var sizes [7]uint32
	for i := range sizes {
		sizes[i] = h.u32()
	}
	if h.err || indexFormat > 1 {
		return nil, nil, nil, errWOFF2
	}
	streams := make([]*reader, 7)
	for i, n := range sizes {
		s := h.take(int(n))
		if h.err {
			return nil, nil, nil, errWOFF2
		}
		streams[i] = &reader{b: s}
	}
	if options&1 != 0 {
		h.take((numGlyphs + 7) / 8) // overlap bitmap: drawing does not need it
	}
	nContours, nPoints, flagS, glyphS, compS, bboxS, instrS := streams[0], streams[1], streams[2], streams[3], streams[4], streams[5], streams[6]
	bitmap := bboxS.take(4 * ((numGlyphs + 31) / 32))
	if bboxS.err {
		return nil, nil, nil, errWOFF2
	}
	hasBox := func(i int) bool { return bitmap[i>>3]&(0x80>>(i&7)) != 0 }
	offsets := make([]int, 0, numGlyphs+1)
	xMins = make([]int, numGlyphs)
	var out bytes.Buffer
	put16 := func(v int) { out.WriteByte(byte(v >> 8)); out.WriteByte(byte(v)) }
	for i := range numGlyphs {
		offsets = append(offsets, out.Len())
		nc := nContours.i16()
		switch {
		case nContours.err:
			return nil, nil, nil, errWOFF2
		case nc == 0:
			if hasBox(i) {
				return nil, nil, nil, errWOFF2
			}
		case nc > 0:
			ends := make([]int, nc)
			total := 0
			for c := range ends {
				total += nPoints.u255()
				ends[c] = total - 1
			}
			if nPoints.err || total > 0xffff {
				return nil, nil, nil, errWOFF2
			}
			xs, ys, on := make([]int, total), make([]int, total), make([]bool, total)
			x, y := 0, 0
			for p := range total {
				flag := flagS.u8()
				on[p] = flag&0x80 == 0
				dx, dy := triplet(flag&0x7f, glyphS)
				x, y = x+dx, y+dy
				xs[p], ys[p] = x, y
			}
			if flagS.err || glyphS.err {
				return nil, nil, nil, errWOFF2
			}
			instrLen := glyphS.u255()
			instr := instrS.take(instrLen)
			if glyphS.err || instrS.err {
				return nil, nil, nil, errWOFF2
			}
			var box [4]int
			if hasBox(i) {
				box = [4]int{bboxS.i16(), bboxS.i16(), bboxS.i16(), bboxS.i16()}
			} else if total > 0 {
				box = [4]int{slices.Min(xs), slices.Min(ys), slices.Max(xs), slices.Max(ys)}
			}
			xMins[i] = box[0]
			put16(nc)
			for _, v := range box {
				put16(v)
			}
			for _, e := range ends {
				put16(e)
			}
			put16(instrLen)
			out.Write(instr)
			for p := range total {
				if on[p] {
					out.WriteByte(1)
				} else {
					out.WriteByte(0)
				}
			}
			for _, coords := range [][]int{xs, ys} {
				prev := 0
				for _, v := range coords {
					put16(v - prev)
					prev = v
				}
			}
		case nc == -1:
			if !hasBox(i) {
				return nil, nil, nil, errWOFF2
			}
			box := [4]int{bboxS.i16(), bboxS.i16(), bboxS.i16(), bboxS.i16()}
			xMins[i] = box[0]
			start := compS.b
			haveInstr := false
			for more := true; more; {
				flags := compS.u16()
				compS.take(2) // glyph index
				n := 2
				if flags&0x1 != 0 {
					n = 4
				}
				switch {
				case flags&0x8 != 0:
					n += 2
				case flags&0x40 != 0:
					n += 4
				case flags&0x80 != 0:
					n += 8
				}
				compS.take(n)
				haveInstr = haveInstr || flags&0x100 != 0
				more = flags&0x20 != 0
			}
			if compS.err {
				return nil, nil, nil, errWOFF2
			}
			put16(-1)
			for _, v := range box {
				put16(v)
			}
			out.Write(start[:len(start)-len(compS.b)])
			if haveInstr {
				instrLen := glyphS.u255()
				instr := instrS.take(instrLen)
				if glyphS.err || instrS.err {
					return nil, nil, nil, errWOFF2
				}
				put16(instrLen)
				out.Write(instr)
			}
		default:
			return nil, nil, nil, errWOFF2
		}
		for out.Len()%4 != 0 {
			out.WriteByte(0)
		}
		if out.Len() > MaxFileBytes {
			return nil, nil, nil, ErrTooLarge
		}
	}
	offsets = append(offsets, out.Len())
	for _, o := range offsets {
		if indexFormat == 0 {
			if o/2 > 0xffff {
				return nil, nil, nil, errWOFF2
			}
			loca = binary.BigEndian.AppendUint16(loca, uint16(o/2))
		} else {
			loca = binary.BigEndian.AppendUint32(loca, uint32(o))
		}
	}
	return out.Bytes(), loca, xMins, nil
}

// triplet decodes one point's move from its flag (without the on-curve bit) and the glyph stream.
func triplet(flag int, s *reader) (dx, dy int) {
	sign := func(f, v int) int {
		if f&1 != 0 {
			return v
		}
		return -v
	}
	switch {
	case flag < 10:
		return 0, sign(flag, (flag&14)<<7+s.u8())
	case flag < 20:
		return sign(flag, ((flag-10)&14)<<7+s.u8()), 0
	case flag < 84:
		b0, b1 := flag-20, s.u8()
		return sign(flag, 1+(b0&0x30)+(b1>>4)), sign(flag>>1, 1+(b0&0x0c)<<2+(b1&0x0f))
	case flag < 120:
		b0 := flag - 84
		b1, b2 := s.u8(), s.u8()
		return sign(flag, 1+(b0/12)<<8+b1), sign(flag>>1, 1+((b0%12)>>2)<<8+b2)
	case flag < 124:
		b1, b2, b3 := s.u8(), s.u8(), s.u8()
		return sign(flag, b1<<4+b2>>4), sign(flag>>1, (b2&0x0f)<<8+b3)
	default:
		b1, b2, b3, b4 := s.u8(), s.u8(), s.u8(), s.u8()
		return sign(flag, b1<<8+b2), sign(flag>>1, b3<<8+b4)
	}
}

// rebuildHmtx turns a transformed hmtx back: left side bearings left out are the glyphs' xMin.
func rebuildHmtx(b, hhea []byte, xMins []int, origLen uint32) ([]byte, error) {
	if len(hhea) < 36 || xMins == nil {
		return nil, errWOFF2
	}
	numH := int(binary.BigEndian.Uint16(hhea[34:]))
	numGlyphs := len(xMins)
	if numH == 0 || numH > numGlyphs || uint32(4*numH+2*(numGlyphs-numH)) != origLen {
		return nil, errWOFF2
	}
	r := &reader{b: b}
	flags := r.u8()
	adv := make([]int, numH)
	for i := range adv {
		adv[i] = r.u16()
	}
	lsb := make([]int, numGlyphs)
	for i := range lsb {
		proportional := i < numH
		if (proportional && flags&1 != 0) || (!proportional && flags&2 != 0) {
			lsb[i] = xMins[i]
		} else {
			lsb[i] = r.i16()
		}
	}
	if r.err || flags&^3 != 0 {
		return nil, errWOFF2
	}
	out := make([]byte, 0, origLen)
	for i := range numGlyphs {
		if i < numH {
			out = binary.BigEndian.AppendUint16(out, uint16(adv[i]))
		}
		out = binary.BigEndian.AppendUint16(out, uint16(int16(lsb[i])))
	}
	return out, nil
}
