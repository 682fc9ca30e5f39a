package dpi_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"testing"

	"github.com/pressroom/pressroom/renderer/dpi"
)

func pngChunk(typ string, data []byte) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[4:]))
}

func physData(x, y uint32, unit byte) []byte {
	d := binary.BigEndian.AppendUint32(nil, x)
	d = binary.BigEndian.AppendUint32(d, y)
	return append(d, unit)
}

// testPNG encodes a small image and inserts extra chunks after IHDR.
func testPNG(t *testing.T, extra ...[]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 3, 3))); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	out := append([]byte{}, b[:33]...)
	for _, c := range extra {
		out = append(out, c...)
	}
	return append(out, b[33:]...)
}

// testJPEG encodes a small image and inserts segments after SOI.
func testJPEG(t *testing.T, segments ...[]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, image.NewGray(image.Rect(0, 0, 8, 8)), nil); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	out := append([]byte{}, b[:2]...)
	for _, s := range segments {
		out = append(out, s...)
	}
	return append(out, b[2:]...)
}

func segment(marker byte, data []byte) []byte {
	b := []byte{0xff, marker}
	b = binary.BigEndian.AppendUint16(b, uint16(len(data)+2))
	return append(b, data...)
}

func jfif(units byte, x, y uint16) []byte {
	d := []byte("JFIF\x00\x01\x02")
	d = append(d, units)
	d = binary.BigEndian.AppendUint16(d, x)
	d = binary.BigEndian.AppendUint16(d, y)
	return segment(0xe0, append(d, 0, 0))
}

// exif builds an APP1 EXIF segment with IFD0 holding XResolution,
// YResolution (rationals) and, when unit != 0, ResolutionUnit.
func exif(bo interface {
	binary.ByteOrder
	binary.AppendByteOrder
}, xNum, xDen, yNum, yDen uint32, unit uint16) []byte {
	t := []byte("II")
	if bo.String() == "BigEndian" {
		t = []byte("MM")
	}
	t = bo.AppendUint16(t, 42)
	t = bo.AppendUint32(t, 8)
	n := uint16(2)
	if unit != 0 {
		n = 3
	}
	t = bo.AppendUint16(t, n)
	ratOff := uint32(8 + 2 + 12*int(n) + 4)
	entry := func(tag, typ uint16, count, value uint32) {
		t = bo.AppendUint16(t, tag)
		t = bo.AppendUint16(t, typ)
		t = bo.AppendUint32(t, count)
		t = bo.AppendUint32(t, value)
	}
	entry(0x011a, 5, 1, ratOff)
	entry(0x011b, 5, 1, ratOff+8)
	if unit != 0 {
		// A SHORT sits in the first two bytes of the value field.
		t = bo.AppendUint16(t, 0x0128)
		t = bo.AppendUint16(t, 3)
		t = bo.AppendUint32(t, 1)
		t = bo.AppendUint16(t, unit)
		t = append(t, 0, 0)
	}
	t = bo.AppendUint32(t, 0) // no next IFD
	t = bo.AppendUint32(t, xNum)
	t = bo.AppendUint32(t, xDen)
	t = bo.AppendUint32(t, yNum)
	t = bo.AppendUint32(t, yDen)
	return segment(0xe1, append([]byte("Exif\x00\x00"), t...))
}

func TestDeclared(t *testing.T) {
	badCRC := pngChunk("pHYs", physData(11811, 11811, 1))
	badCRC[len(badCRC)-1] ^= 1
	brokenEXIF := segment(0xe1, []byte("Exif\x00\x00MM\x00\x2a\x00\x00\xff\xff"))
	tests := []struct {
		name         string
		in           []byte
		wantX, wantY float64
		wantOK       bool
		wantErr      error
	}{
		{"png 300 dpi", testPNG(t, pngChunk("pHYs", physData(11811, 11811, 1))), 300, 300, true, nil},
		{"png 72 dpi", testPNG(t, pngChunk("pHYs", physData(2835, 2835, 1))), 72, 72, true, nil},
		{"png anisotropic", testPNG(t, pngChunk("pHYs", physData(11811, 5906, 1))), 300, 150, true, nil},
		{"png unsnapped", testPNG(t, pngChunk("pHYs", physData(10000, 10000, 1))), 254, 254, true, nil},
		{"png odd density", testPNG(t, pngChunk("pHYs", physData(10005, 10005, 1))), 10005 * 0.0254, 10005 * 0.0254, true, nil},
		{"png aspect only", testPNG(t, pngChunk("pHYs", physData(1, 1, 0))), 0, 0, false, nil},
		{"png without pHYs", testPNG(t), 0, 0, false, nil},
		{"png pHYs after text", testPNG(t, pngChunk("tEXt", []byte("a\x00b")), pngChunk("pHYs", physData(11811, 11811, 1))), 300, 300, true, nil},
		{"png pHYs bad CRC", testPNG(t, badCRC), 0, 0, false, dpi.ErrMalformed},
		{"png pHYs wrong length", testPNG(t, pngChunk("pHYs", []byte{1, 2, 3})), 0, 0, false, dpi.ErrMalformed},
		{"png truncated", testPNG(t)[:20], 0, 0, false, dpi.ErrTruncated},
		{"jpeg plain", testJPEG(t), 0, 0, false, nil},
		{"jfif dpi", testJPEG(t, jfif(1, 300, 300)), 300, 300, true, nil},
		{"jfif dpcm", testJPEG(t, jfif(2, 118, 59)), 300, 150, true, nil},
		{"jfif aspect only", testJPEG(t, jfif(0, 1, 1)), 0, 0, false, nil},
		{"exif little endian inch", testJPEG(t, exif(binary.LittleEndian, 300, 1, 300, 1, 2)), 300, 300, true, nil},
		{"exif big endian inch", testJPEG(t, exif(binary.BigEndian, 600, 2, 240, 1, 2)), 300, 240, true, nil},
		{"exif default unit is inch", testJPEG(t, exif(binary.BigEndian, 72, 1, 72, 1, 0)), 72, 72, true, nil},
		{"exif cm", testJPEG(t, exif(binary.LittleEndian, 100, 1, 100, 1, 3)), 254, 254, true, nil},
		{"exif no unit", testJPEG(t, exif(binary.LittleEndian, 72, 1, 72, 1, 1)), 0, 0, false, nil},
		{"exif zero denominator", testJPEG(t, exif(binary.LittleEndian, 72, 0, 72, 1, 2)), 0, 0, false, nil},
		{"jfif wins over exif", testJPEG(t, jfif(1, 300, 300), exif(binary.LittleEndian, 72, 1, 72, 1, 2)), 300, 300, true, nil},
		{"exif when jfif has no units", testJPEG(t, jfif(0, 1, 1), exif(binary.BigEndian, 150, 1, 150, 1, 2)), 150, 150, true, nil},
		{"exif IFD offset outside", testJPEG(t, brokenEXIF), 0, 0, false, dpi.ErrMalformed},
		{"jpeg truncated", testJPEG(t, jfif(1, 300, 300))[:12], 0, 0, false, dpi.ErrTruncated},
		{"gif", []byte("GIF89a"), 0, 0, false, dpi.ErrUnknownFormat},
		{"empty", nil, 0, 0, false, dpi.ErrUnknownFormat},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, y, ok, err := dpi.Declared(bytes.NewReader(tc.in))
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error = %v, want %v", err, tc.wantErr)
			}
			if math.Abs(x-tc.wantX) > 1e-9 || math.Abs(y-tc.wantY) > 1e-9 || ok != tc.wantOK {
				t.Errorf("Declared = %v, %v, %v; want %v, %v, %v", x, y, ok, tc.wantX, tc.wantY, tc.wantOK)
			}
		})
	}
}
