package pngenc_test

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pressroom/pressroom/renderer/pngenc"
)

// Checked manually besides these tests: ImageMagick 6.9 (`identify -verbose`,
// `convert out.png out.ppm`), libvips (`vips copy out.png x.v`) and Python's
// zlib (which verifies the combined Adler-32) read 1200x2600 and 700x1900
// outputs without warnings; ImageMagick reports the pHYs as 118.11 px/cm for
// 300 DPI. pngcheck is not installed on the build machine.

// wantNRGBA returns the non-premultiplied pixels a PNG of img must decode to,
// converted exactly as image/png converts.
func wantNRGBA(img image.Image) *image.NRGBA {
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.SetNRGBA(x-b.Min.X, y-b.Min.Y, color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA))
		}
	}
	return out
}

func decodeNRGBA(t *testing.T, b []byte) *image.NRGBA {
	t.Helper()
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("image/png cannot decode the output: %v", err)
	}
	n, ok := m.(*image.NRGBA)
	if !ok {
		t.Fatalf("decoded %T, want *image.NRGBA (colour type 6, 8-bit)", m)
	}
	return n
}

func randomNRGBA(w, h int, seed uint64) *image.NRGBA {
	r := rand.New(rand.NewPCG(seed, 1))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.IntN(256))
	}
	return img
}

func TestEncodeRoundTrip(t *testing.T) {
	// A sub-image with non-zero origin and a stride wider than the row.
	big := randomNRGBA(50, 40, 7)
	sub := big.SubImage(image.Rect(3, 5, 40, 33))
	gray := image.NewGray(image.Rect(0, 0, 17, 9))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 11)
	}
	paletted := image.NewPaletted(image.Rect(0, 0, 5, 5), color.Palette{color.Transparent, color.NRGBA{255, 0, 0, 128}})
	paletted.Pix[3] = 1

	tests := []struct {
		name string
		img  image.Image
		opt  pngenc.Options
	}{
		{"1x1 NRGBA", randomNRGBA(1, 1, 1), pngenc.Options{}},
		{"1x1 RGBA", premultiplied(1, 1), pngenc.Options{}},
		{"odd width NRGBA", randomNRGBA(333, 7, 2), pngenc.Options{}},
		{"odd width RGBA partial alpha", premultiplied(257, 31), pngenc.Options{}},
		{"one tall column", randomNRGBA(1, 3000, 3), pngenc.Options{}},
		{"smaller than one segment", flatArtwork(100, 80), pngenc.Options{}},
		{"many segments NRGBA", photoLike(301, 2600), pngenc.Options{Concurrency: 3}},
		{"many segments RGBA", premultiplied(257, 2100), pngenc.Options{}},
		{"RGBA runs of transparent and opaque pixels", rgbaOf(flatArtwork(203, 150)), pngenc.Options{}},
		{"many segments serial", randomNRGBA(300, 1800, 4), pngenc.Options{Concurrency: 1, Level: 1}},
		{"level 9", flatArtwork(320, 240), pngenc.Options{Level: 9}},
		{"sub-image", sub, pngenc.Options{}},
		{"gray generic path", gray, pngenc.Options{}},
		{"paletted generic path", paletted, pngenc.Options{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := pngenc.Encode(&buf, tc.img, tc.opt); err != nil {
				t.Fatalf("Encode: %v", err)
			}
			got := decodeNRGBA(t, buf.Bytes())
			want := wantNRGBA(tc.img)
			if got.Bounds() != want.Bounds() {
				t.Fatalf("bounds %v, want %v", got.Bounds(), want.Bounds())
			}
			if !bytes.Equal(got.Pix, want.Pix) {
				t.Fatalf("decoded pixels differ from the input")
			}
			// And the same as image/png would produce (small images only:
			// image/png is slow under the race detector).
			if b := tc.img.Bounds(); b.Dx()*b.Dy() > 200_000 {
				return
			}
			var ref bytes.Buffer
			if err := png.Encode(&ref, tc.img); err != nil {
				t.Fatal(err)
			}
			refImg, _ := png.Decode(&ref)
			refN := image.NewNRGBA(refImg.Bounds())
			draw.Draw(refN, refN.Rect, refImg, refImg.Bounds().Min, draw.Src)
			if !bytes.Equal(refN.Pix, got.Pix) {
				t.Fatalf("pixels differ from image/png's encoding of the same image")
			}
		})
	}
}

// TestEncodeTransparentMargins covers segments that filter to nothing but
// zero bytes (coded once per process, see zeroCode): top, middle and final
// segments of transparent rows around a band of artwork. The zlib stream must
// read back whole with a correct Adler-32, the pixels must survive, and the
// second encoding (codes now cached) must be byte for byte the first.
func TestEncodeTransparentMargins(t *testing.T) {
	const w, h = 600, 3000 // 2401 bytes a filtered row: 436-row segments
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	band := flatArtwork(w, 500)
	copy(img.Pix[1100*img.Stride:], band.Pix)
	for _, opt := range []pngenc.Options{{}, {Concurrency: 1, Level: 1}, {Concurrency: 3, Level: 9}} {
		var first, second bytes.Buffer
		if err := pngenc.Encode(&first, img, opt); err != nil {
			t.Fatal(err)
		}
		if err := pngenc.Encode(&second, img, opt); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("%+v: the second encoding differs from the first", opt)
		}
		if got := decodeNRGBA(t, first.Bytes()); !bytes.Equal(got.Pix, img.Pix) {
			t.Fatalf("%+v: decoded pixels differ from the input", opt)
		}
		var stream []byte
		for p := first.Bytes()[8:]; len(p) >= 12; {
			n := int(binary.BigEndian.Uint32(p))
			if string(p[4:8]) == "IDAT" {
				stream = append(stream, p[8:8+n]...)
			}
			p = p[12+n:]
		}
		zr, err := zlib.NewReader(bytes.NewReader(stream))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr) // zlib checks the Adler-32 at the end
		if err != nil {
			t.Fatalf("%+v: the zlib stream does not read back: %v", opt, err)
		}
		if len(raw) != h*(4*w+1) {
			t.Fatalf("%+v: %d filtered bytes, want %d", opt, len(raw), h*(4*w+1))
		}
	}
}

// chunks returns the chunk types of a PNG and the data of its pHYs chunk.
func chunks(t *testing.T, b []byte) (types []string, phys []byte) {
	t.Helper()
	for p := b[8:]; len(p) >= 12; {
		n := int(binary.BigEndian.Uint32(p))
		typ := string(p[4:8])
		types = append(types, typ)
		if typ == "pHYs" {
			phys = p[8 : 8+n]
		}
		p = p[12+n:]
	}
	return types, phys
}

func TestEncodePHYs(t *testing.T) {
	tests := []struct {
		dpi     float64
		wantPPM uint32 // 0: no pHYs chunk
	}{
		{0, 0},
		{300, 11811}, // 300 / 0.0254 = 11811.02
		{72, 2835},   // 2834.65
		{150, 5906},  // 5905.51
		{96, 3780},   // 3779.53
		{600, 23622},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v dpi", tc.dpi), func(t *testing.T) {
			var buf bytes.Buffer
			if err := pngenc.Encode(&buf, randomNRGBA(4, 4, 1), pngenc.Options{DPI: tc.dpi}); err != nil {
				t.Fatal(err)
			}
			types, phys := chunks(t, buf.Bytes())
			if tc.wantPPM == 0 {
				if phys != nil {
					t.Fatalf("pHYs written for DPI 0: %v", types)
				}
				return
			}
			if len(phys) != 9 {
				t.Fatalf("pHYs = %x (chunks %v), want 9 bytes", phys, types)
			}
			x, y, unit := binary.BigEndian.Uint32(phys), binary.BigEndian.Uint32(phys[4:]), phys[8]
			if x != tc.wantPPM || y != tc.wantPPM || unit != 1 {
				t.Errorf("pHYs = %d x %d unit %d, want %d x %d unit 1", x, y, unit, tc.wantPPM, tc.wantPPM)
			}
			if types[0] != "IHDR" || types[1] != "pHYs" || types[2] != "IDAT" || types[len(types)-1] != "IEND" {
				t.Errorf("chunk order %v", types)
			}
			if got := pngenc.PixelsPerMetre(tc.dpi); got != tc.wantPPM {
				t.Errorf("PixelsPerMetre(%v) = %d", tc.dpi, got)
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	ok := randomNRGBA(2, 2, 1)
	tests := []struct {
		name string
		img  image.Image
		opt  pngenc.Options
		want error
	}{
		{"empty image", image.NewNRGBA(image.Rect(0, 0, 0, 5)), pngenc.Options{}, pngenc.ErrEmptyImage},
		{"negative DPI", ok, pngenc.Options{DPI: -1}, pngenc.ErrBadOptions},
		{"NaN DPI", ok, pngenc.Options{DPI: math.NaN()}, pngenc.ErrBadOptions},
		{"infinite DPI", ok, pngenc.Options{DPI: math.Inf(1)}, pngenc.ErrBadOptions},
		{"negative concurrency", ok, pngenc.Options{Concurrency: -2}, pngenc.ErrBadOptions},
		{"level 10", ok, pngenc.Options{Level: 10}, pngenc.ErrBadOptions},
		{"negative level", ok, pngenc.Options{Level: -1}, pngenc.ErrBadOptions},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := pngenc.Encode(&bytes.Buffer{}, tc.img, tc.opt); !errors.Is(err, tc.want) {
				t.Fatalf("Encode error = %v, want %v", err, tc.want)
			}
		})
	}
}

// failWriter fails after n bytes, to check errors surface and no goroutine
// is left blocked (the race detector and the test's end would hang).
type failWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, errDiskFull
	}
	f.n -= len(p)
	return len(p), nil
}

func TestEncodeWriteError(t *testing.T) {
	img := photoLike(400, 900)
	for _, n := range []int{0, 10, 100, 50_000, 300_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			err := pngenc.Encode(&failWriter{n: n}, img, pngenc.Options{DPI: 300})
			if !errors.Is(err, errDiskFull) {
				t.Fatalf("Encode error = %v, want the writer's error", err)
			}
		})
	}
}

// TestSizeAgainstImagePNG holds the size target: output at the default level
// is no more than 1.2x what image/png writes at its default compression.
func TestSizeAgainstImagePNG(t *testing.T) {
	tests := []struct {
		name string
		img  image.Image
	}{
		{"photo-like", photoLike(600, 1400)},
		{"flat artwork with transparency", flatArtwork(600, 1400)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ours, ref bytes.Buffer
			if err := pngenc.Encode(&ours, tc.img, pngenc.Options{}); err != nil {
				t.Fatal(err)
			}
			if err := png.Encode(&ref, tc.img); err != nil {
				t.Fatal(err)
			}
			ratio := float64(ours.Len()) / float64(ref.Len())
			t.Logf("ours %d bytes, image/png %d bytes, ratio %.3f", ours.Len(), ref.Len(), ratio)
			if ratio > 1.2 {
				t.Errorf("output is %.3fx image/png's size, want at most 1.2x", ratio)
			}
		})
	}
}

func TestAdler32Combine(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 200_000)
	for i := range data {
		data[i] = uint8(r.IntN(256))
	}
	splits := []struct {
		name string
		cut  int
	}{
		{"empty first", 0},
		{"one byte first", 1},
		{"middle", 100_000},
		{"beyond modulus", 65521 + 17},
		{"empty second", len(data)},
	}
	for _, tc := range splits {
		t.Run(tc.name, func(t *testing.T) {
			a, b := data[:tc.cut], data[tc.cut:]
			got := pngenc.Adler32CombineForTest(adler32.Checksum(a), adler32.Checksum(b), int64(len(b)))
			if want := adler32.Checksum(data); got != want {
				t.Fatalf("combine = %08x, want %08x", got, want)
			}
		})
	}
	// All-0xff data drives both sums to their largest values.
	ff := bytes.Repeat([]byte{0xff}, 300_000)
	got := pngenc.Adler32CombineForTest(adler32.Checksum(ff[:123_457]), adler32.Checksum(ff[123_457:]), int64(len(ff)-123_457))
	if want := adler32.Checksum(ff); got != want {
		t.Fatalf("combine 0xff = %08x, want %08x", got, want)
	}
}
