package dpi

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// Errors returned by Declared.
var (
	// ErrUnknownFormat means the input is neither PNG nor JPEG.
	ErrUnknownFormat = errors.New("dpi: not a PNG or JPEG file")
	// ErrTruncated means the input ended before the image data began.
	ErrTruncated = errors.New("dpi: truncated image header")
	// ErrMalformed means a chunk, segment or EXIF structure is invalid.
	ErrMalformed = errors.New("dpi: malformed image header")
)

const (
	metresPerInch = 0.0254
	cmPerInch     = 2.54
)

// Declared returns the resolution a PNG or JPEG file declares, in dots per
// inch, reading no further than the start of the image data. ok is false
// when the file declares none or only an aspect ratio (PNG pHYs unit 0,
// JFIF units 0, EXIF ResolutionUnit 1).
//
// PNG: the pHYs chunk, pixels per metre, snapped to a whole DPI when within
// the rounding of the metre unit (11811 px/m is 300 DPI, not 299.9994).
// JPEG: the JFIF APP0 density (units 1 = per inch, 2 = per cm) when it has
// units, else EXIF IFD0 XResolution/YResolution with ResolutionUnit (2 or
// absent = inch, 3 = cm), both byte orders. JFIF wins because it is the
// density libjpeg-based tools (and so most RIPs) report.
func Declared(r io.Reader) (dpiX, dpiY float64, ok bool, err error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(8)
	switch {
	case string(head) == "\x89PNG\r\n\x1a\n":
		return declaredPNG(br)
	case len(head) >= 2 && head[0] == 0xff && head[1] == 0xd8:
		return declaredJPEG(br)
	}
	return 0, 0, false, ErrUnknownFormat
}

// snap rounds dpi to a whole number when it is within half a unit step of
// one: the file could not have said it more precisely.
func snap(dpi, step float64) float64 {
	if r := math.Round(dpi); math.Abs(dpi-r) <= step/2 {
		return r
	}
	return dpi
}

func readFull(r io.Reader, b []byte, what string) error {
	if _, err := io.ReadFull(r, b); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%w: input ends in %s", ErrTruncated, what)
		}
		return fmt.Errorf("dpi: read %s: %w", what, err)
	}
	return nil
}

func skip(br *bufio.Reader, n int64, what string) error {
	for n > 0 {
		m, err := br.Discard(int(min(n, 1<<30)))
		n -= int64(m)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("%w: input ends in %s", ErrTruncated, what)
			}
			return fmt.Errorf("dpi: read %s: %w", what, err)
		}
	}
	return nil
}

func declaredPNG(br *bufio.Reader) (float64, float64, bool, error) {
	if _, err := br.Discard(8); err != nil {
		return 0, 0, false, fmt.Errorf("%w: PNG signature", ErrTruncated)
	}
	off := int64(8)
	var hdr [8]byte
	for {
		if err := readFull(br, hdr[:], fmt.Sprintf("chunk header at offset %d", off)); err != nil {
			return 0, 0, false, err
		}
		n := binary.BigEndian.Uint32(hdr[:4])
		typ := string(hdr[4:])
		if n > 1<<31-1 {
			return 0, 0, false, fmt.Errorf("%w: %q chunk at offset %d declares %d bytes", ErrMalformed, typ, off, n)
		}
		switch typ {
		case "IDAT", "IEND":
			// pHYs must come before the image data.
			return 0, 0, false, nil
		case "pHYs":
			if n != 9 {
				return 0, 0, false, fmt.Errorf("%w: pHYs chunk at offset %d is %d bytes, want 9", ErrMalformed, off, n)
			}
			var d [13]byte
			if err := readFull(br, d[:], "pHYs chunk"); err != nil {
				return 0, 0, false, err
			}
			crc := crc32.Update(crc32.ChecksumIEEE(hdr[4:]), crc32.IEEETable, d[:9])
			if binary.BigEndian.Uint32(d[9:]) != crc {
				return 0, 0, false, fmt.Errorf("%w: pHYs chunk at offset %d has a bad CRC", ErrMalformed, off)
			}
			x, y := binary.BigEndian.Uint32(d[:4]), binary.BigEndian.Uint32(d[4:8])
			if d[8] != 1 || x == 0 || y == 0 {
				return 0, 0, false, nil // aspect ratio only, or nothing usable
			}
			return snap(float64(x)*metresPerInch, metresPerInch), snap(float64(y)*metresPerInch, metresPerInch), true, nil
		}
		if err := skip(br, int64(n)+4, fmt.Sprintf("%q chunk at offset %d", typ, off)); err != nil {
			return 0, 0, false, err
		}
		off += 12 + int64(n)
	}
}

// resolution is what one JPEG metadata block declares.
type resolution struct {
	x, y float64
	ok   bool
}

func declaredJPEG(br *bufio.Reader) (float64, float64, bool, error) {
	if _, err := br.Discard(2); err != nil {
		return 0, 0, false, fmt.Errorf("%w: JPEG SOI", ErrTruncated)
	}
	var jfif, exif resolution
	seg := make([]byte, 0, 1<<16)
	for {
		m, err := nextMarker(br)
		if err != nil {
			return 0, 0, false, err
		}
		switch {
		case m == 0x01 || (m >= 0xd0 && m <= 0xd7): // no length
			continue
		case m == 0xd9 || m == 0xda: // EOI, SOS: the metadata is behind us
			if jfif.ok {
				return jfif.x, jfif.y, true, nil
			}
			return exif.x, exif.y, exif.ok, nil
		}
		var l [2]byte
		if err := readFull(br, l[:], fmt.Sprintf("length of marker %#x", m)); err != nil {
			return 0, 0, false, err
		}
		n := int(binary.BigEndian.Uint16(l[:]))
		if n < 2 {
			return 0, 0, false, fmt.Errorf("%w: marker %#x has length %d", ErrMalformed, m, n)
		}
		n -= 2
		if m != 0xe0 && m != 0xe1 {
			if err := skip(br, int64(n), fmt.Sprintf("segment %#x", m)); err != nil {
				return 0, 0, false, err
			}
			continue
		}
		seg = seg[:n]
		if err := readFull(br, seg, fmt.Sprintf("APP%d segment", m-0xe0)); err != nil {
			return 0, 0, false, err
		}
		switch {
		case m == 0xe0 && bytes.HasPrefix(seg, []byte("JFIF\x00")) && !jfif.ok:
			jfif = parseJFIF(seg[5:])
		case m == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) && !exif.ok:
			if exif, err = parseEXIF(seg[6:]); err != nil {
				return 0, 0, false, err
			}
		}
	}
}

// nextMarker reads a marker: 0xff, optional 0xff fill bytes, the code.
func nextMarker(br *bufio.Reader) (byte, error) {
	b, err := br.ReadByte()
	if err != nil {
		return 0, fmt.Errorf("%w: input ends before the image data", ErrTruncated)
	}
	if b != 0xff {
		return 0, fmt.Errorf("%w: byte %#x where a marker should start", ErrMalformed, b)
	}
	for b == 0xff {
		if b, err = br.ReadByte(); err != nil {
			return 0, fmt.Errorf("%w: input ends inside a marker", ErrTruncated)
		}
	}
	if b == 0 {
		return 0, fmt.Errorf("%w: stuffed byte outside entropy-coded data", ErrMalformed)
	}
	return b, nil
}

// parseJFIF reads version(2) units(1) Xdensity(2) Ydensity(2).
func parseJFIF(d []byte) resolution {
	if len(d) < 7 {
		return resolution{}
	}
	x, y := float64(binary.BigEndian.Uint16(d[3:])), float64(binary.BigEndian.Uint16(d[5:]))
	if x == 0 || y == 0 {
		return resolution{}
	}
	switch d[2] {
	case 1:
		return resolution{x, y, true}
	case 2:
		return resolution{snap(x*cmPerInch, cmPerInch), snap(y*cmPerInch, cmPerInch), true}
	}
	return resolution{}
}

// EXIF tags and types used.
const (
	tagXResolution    = 0x011a
	tagYResolution    = 0x011b
	tagResolutionUnit = 0x0128
	typeShort         = 3
	typeRational      = 5
)

// parseEXIF reads XResolution, YResolution and ResolutionUnit from IFD0 of
// the TIFF structure in an EXIF APP1 segment. Offsets are relative to the
// start of the TIFF header and checked against the segment.
func parseEXIF(t []byte) (resolution, error) {
	if len(t) < 8 {
		return resolution{}, fmt.Errorf("%w: EXIF TIFF header is %d bytes", ErrMalformed, len(t))
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return resolution{}, fmt.Errorf("%w: EXIF byte order %q", ErrMalformed, t[:2])
	}
	if bo.Uint16(t[2:]) != 42 {
		return resolution{}, fmt.Errorf("%w: EXIF TIFF magic %d, want 42", ErrMalformed, bo.Uint16(t[2:]))
	}
	ifd := uint64(bo.Uint32(t[4:]))
	if ifd+2 > uint64(len(t)) {
		return resolution{}, fmt.Errorf("%w: EXIF IFD0 offset %d outside the %d-byte segment", ErrMalformed, ifd, len(t))
	}
	count := uint64(bo.Uint16(t[ifd:]))
	if ifd+2+12*count > uint64(len(t)) {
		return resolution{}, fmt.Errorf("%w: EXIF IFD0 with %d entries overruns the segment", ErrMalformed, count)
	}
	var (
		x, y float64
		unit uint16 = 2 // TIFF default: inch
	)
	rational := func(e []byte) (float64, error) {
		if bo.Uint16(e[2:]) != typeRational || bo.Uint32(e[4:]) != 1 {
			return 0, nil // unexpected type: ignore the tag
		}
		off := uint64(bo.Uint32(e[8:]))
		if off+8 > uint64(len(t)) {
			return 0, fmt.Errorf("%w: EXIF rational at %d outside the segment", ErrMalformed, off)
		}
		num, den := bo.Uint32(t[off:]), bo.Uint32(t[off+4:])
		if den == 0 {
			return 0, nil
		}
		return float64(num) / float64(den), nil
	}
	for i := range count {
		e := t[ifd+2+12*i : ifd+2+12*i+12]
		var err error
		switch bo.Uint16(e) {
		case tagXResolution:
			x, err = rational(e)
		case tagYResolution:
			y, err = rational(e)
		case tagResolutionUnit:
			if bo.Uint16(e[2:]) == typeShort {
				unit = bo.Uint16(e[8:])
			}
		}
		if err != nil {
			return resolution{}, err
		}
	}
	if x <= 0 || y <= 0 || math.IsInf(x, 0) || math.IsInf(y, 0) {
		return resolution{}, nil
	}
	switch unit {
	case 2:
		return resolution{x, y, true}, nil
	case 3:
		return resolution{x * cmPerInch, y * cmPerInch, true}, nil
	}
	return resolution{}, nil
}
