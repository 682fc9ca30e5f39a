package imagelimit_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"reflect"
	"runtime"
	"testing"

	"github.com/pressroom/pressroom/renderer/imagelimit"
)

func testImage(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 9), uint8(y * 5), 90, 255})
		}
	}
	return img
}

func encodePNG(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, testImage(w, h)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeJPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, testImage(w, h), nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeader returns a PNG signature and a valid IHDR declaring w x h RGBA,
// and nothing else: a pixel bomb's first 33 bytes.
func pngHeader(w, h uint32) []byte {
	b := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	b = binary.BigEndian.AppendUint32(b, w)
	b = binary.BigEndian.AppendUint32(b, h)
	b = append(b, 8, 6, 0, 0, 0)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[12:]))
}

// jpegHeader returns SOI, a baseline SOF0 frame header declaring w x h and
// the start of a scan header, where image/jpeg's DecodeConfig stops reading.
func jpegHeader(w, h uint16) []byte {
	b := []byte{0xff, 0xd8, 0xff, 0xc0, 0, 17, 8}
	b = binary.BigEndian.AppendUint16(b, h)
	b = binary.BigEndian.AppendUint16(b, w)
	b = append(b, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1)
	return append(b, 0xff, 0xda, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0)
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecode(t *testing.T) {
	pngBytes := encodePNG(t, 40, 30)
	jpegBytes := encodeJPEG(t, 33, 17)
	small := imagelimit.Config{MaxPixels: 40 * 30, MaxBytes: int64(len(pngBytes))}
	tests := []struct {
		name       string
		in         []byte
		cfg        imagelimit.Config
		wantFormat string
		wantSize   image.Point
		wantErr    error
	}{
		{"png", pngBytes, imagelimit.DefaultConfig(), "png", image.Pt(40, 30), nil},
		{"jpeg", jpegBytes, imagelimit.DefaultConfig(), "jpeg", image.Pt(33, 17), nil},
		{"webp lossless", readTestdata(t, "gopher-doc.1bpp.lossless.webp"), imagelimit.Config{}, "webp", image.Pt(0, 0), nil},
		{"webp lossy", readTestdata(t, "blue-purple-pink.lossy.webp"), imagelimit.Config{}, "webp", image.Pt(0, 0), nil},
		{"exactly at both limits", pngBytes, small, "png", image.Pt(40, 30), nil},
		{"one pixel over", pngBytes, imagelimit.Config{MaxPixels: 40*30 - 1}, "png", image.Point{}, imagelimit.ErrTooManyPixels},
		{"one byte over", pngBytes, imagelimit.Config{MaxBytes: int64(len(pngBytes)) - 1}, "png", image.Point{}, imagelimit.ErrTooLarge},
		{"header alone over the byte limit", pngBytes, imagelimit.Config{MaxBytes: 10}, "png", image.Point{}, imagelimit.ErrTooLarge},
		{"png pixel bomb", pngHeader(100000, 100000), imagelimit.DefaultConfig(), "png", image.Point{}, imagelimit.ErrTooManyPixels},
		{"jpeg pixel bomb", jpegHeader(65535, 65535), imagelimit.DefaultConfig(), "jpeg", image.Point{}, imagelimit.ErrTooManyPixels},
		{"gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), imagelimit.DefaultConfig(), "", image.Point{}, imagelimit.ErrUnknownFormat},
		{"empty", nil, imagelimit.DefaultConfig(), "", image.Point{}, imagelimit.ErrUnknownFormat},
		{"invalid config", pngBytes, imagelimit.Config{MaxPixels: -1}, "", image.Point{}, imagelimit.ErrInvalidConfig},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img, format, err := imagelimit.Decode(bytes.NewReader(tc.in), tc.cfg)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Decode error = %v, want %v", err, tc.wantErr)
			}
			if format != tc.wantFormat {
				t.Errorf("format = %q, want %q", format, tc.wantFormat)
			}
			if tc.wantErr != nil {
				return
			}
			if tc.wantSize != (image.Point{}) && img.Bounds().Size() != tc.wantSize {
				t.Errorf("size %v, want %v", img.Bounds().Size(), tc.wantSize)
			}
			if img.Bounds().Empty() {
				t.Errorf("empty image decoded")
			}
			// DecodeConfig agrees with Decode.
			ic, format2, err := imagelimit.DecodeConfig(bytes.NewReader(tc.in), tc.cfg)
			if err != nil || format2 != format || ic.Width != img.Bounds().Dx() || ic.Height != img.Bounds().Dy() {
				t.Errorf("DecodeConfig = %+v %q %v, disagrees with Decode", ic, format2, err)
			}
		})
	}
}

func TestDecodeTruncated(t *testing.T) {
	b := encodePNG(t, 64, 64)
	_, _, err := imagelimit.Decode(bytes.NewReader(b[:len(b)/2]), imagelimit.DefaultConfig())
	if err == nil {
		t.Fatal("truncated PNG decoded")
	}
	for _, s := range []error{imagelimit.ErrTooLarge, imagelimit.ErrTooManyPixels, imagelimit.ErrUnknownFormat} {
		if errors.Is(err, s) {
			t.Errorf("truncated file reported as %v", s)
		}
	}
}

// TestPixelBombAllocatesNothing refuses a 33-byte PNG declaring 100000x100000
// pixels (40 GB as RGBA) and checks that the refusal allocated only the
// header buffers.
func TestPixelBombAllocatesNothing(t *testing.T) {
	bomb := pngHeader(100000, 100000)
	for _, fn := range []struct {
		name string
		call func(io.Reader) error
	}{
		{"Decode", func(r io.Reader) error { _, _, err := imagelimit.Decode(r, imagelimit.DefaultConfig()); return err }},
		{"DecodeConfig", func(r io.Reader) error {
			_, _, err := imagelimit.DecodeConfig(r, imagelimit.DefaultConfig())
			return err
		}},
	} {
		t.Run(fn.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := fn.call(bytes.NewReader(bomb))
			runtime.ReadMemStats(&after)
			if !errors.Is(err, imagelimit.ErrTooManyPixels) {
				t.Fatalf("error = %v, want ErrTooManyPixels", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<10 {
				t.Errorf("refusing the bomb allocated %d bytes", alloc)
			}
		})
	}
}

// endless is a reader that never ends, as a hostile upload stream might.
type endless struct{ head []byte }

func (e *endless) Read(p []byte) (int, error) {
	if len(e.head) > 0 {
		n := copy(p, e.head)
		e.head = e.head[n:]
		return n, nil
	}
	clear(p)
	return len(p), nil
}

func TestDecodeStopsAtByteLimit(t *testing.T) {
	// A JPEG whose APP1 segments go on forever: the header check never
	// finds the frame, and the byte limit ends it.
	seg := []byte{0xff, 0xd8}
	for range 100 {
		seg = append(seg, 0xff, 0xe1, 0xff, 0xff)
		seg = append(seg, make([]byte, 0xfffd)...)
	}
	cfg := imagelimit.Config{MaxBytes: 1 << 20}
	_, _, err := imagelimit.Decode(&endless{head: seg}, cfg)
	if !errors.Is(err, imagelimit.ErrTooLarge) {
		t.Fatalf("error = %v, want ErrTooLarge", err)
	}
}

func TestDecodeStream(t *testing.T) {
	pngBytes := encodePNG(t, 40, 30)
	jpegBytes := encodeJPEG(t, 33, 17)
	want, err := png.Decode(bytes.NewReader(pngBytes))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("png decodes to image/png's pixels", func(t *testing.T) {
		st, format, err := imagelimit.DecodeStream(bytes.NewReader(pngBytes), imagelimit.Config{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.WaitRows(30); err != nil {
			t.Fatal(err)
		}
		if err := st.Wait(); err != nil {
			t.Fatal(err)
		}
		if format != imagelimit.FormatPNG || !reflect.DeepEqual(st.Image(), want) {
			t.Fatalf("format %q, %T: want png, the same image as image/png", format, st.Image())
		}
	})
	t.Run("jpeg arrives whole", func(t *testing.T) {
		st, format, err := imagelimit.DecodeStream(bytes.NewReader(jpegBytes), imagelimit.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if format != imagelimit.FormatJPEG || st.Image().Bounds().Dx() != 33 || st.WaitRows(17) != nil || st.Wait() != nil {
			t.Fatalf("format %q, bounds %v: want a finished 33x17 jpeg", format, st.Image().Bounds())
		}
	})
	t.Run("pixel bomb refused from the header", func(t *testing.T) {
		_, _, err := imagelimit.DecodeStream(bytes.NewReader(pngHeader(100000, 100000)), imagelimit.Config{MaxPixels: 1000})
		if !errors.Is(err, imagelimit.ErrTooManyPixels) {
			t.Fatalf("error %v, want ErrTooManyPixels", err)
		}
	})
	t.Run("truncated png fails the stream", func(t *testing.T) {
		st, _, err := imagelimit.DecodeStream(bytes.NewReader(pngBytes[:len(pngBytes)-30]), imagelimit.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Wait(); err == nil {
			t.Fatal("Wait on a truncated PNG returned nil")
		}
	})
	t.Run("byte limit fails the stream with ErrTooLarge", func(t *testing.T) {
		st, _, err := imagelimit.DecodeStream(bytes.NewReader(pngBytes), imagelimit.Config{MaxBytes: int64(len(pngBytes) - 20)})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Wait(); !errors.Is(err, imagelimit.ErrTooLarge) {
			t.Fatalf("Wait error %v, want ErrTooLarge", err)
		}
	})
}

func TestDecodeRows(t *testing.T) {
	img := testImage(40, 30)
	img.Pix[3] = 128 // one translucent pixel: image/png encodes it as 8-bit RGBA
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	rgba := b.Bytes()
	// rows decodes data through DecodeRows into an NRGBA; begun says whether begin was called.
	rows := func(data []byte, cfg imagelimit.Config) (got *image.NRGBA, begun bool, err error) {
		err = imagelimit.DecodeRows(bytes.NewReader(data), cfg, func(w, h int) error {
			got, begun = image.NewNRGBA(image.Rect(0, 0, w, h)), true
			return nil
		}, func(y int, row []byte) error {
			copy(got.Pix[y*got.Stride:], row)
			return nil
		})
		return got, begun, err
	}
	t.Run("an RGBA png reads as image/png's pixels", func(t *testing.T) {
		want, err := png.Decode(bytes.NewReader(rgba))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := rows(rgba, imagelimit.Config{})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("error %v, or other pixels than image/png's", err)
		}
	})
	t.Run("an opaque png, encoded as RGB, reads as image/png's pixels made RGBA", func(t *testing.T) {
		opaque := encodePNG(t, 40, 30)
		want, err := png.Decode(bytes.NewReader(opaque))
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := rows(opaque, imagelimit.Config{})
		if m, ok := want.(*image.RGBA); err != nil || !ok || got == nil || !bytes.Equal(got.Pix, m.Pix) {
			t.Fatalf("error %v, or other pixels than image/png's %T", err, want)
		}
	})
	t.Run("jpeg and grey png are refused before begin", func(t *testing.T) {
		var grey bytes.Buffer
		if err := png.Encode(&grey, image.NewGray(image.Rect(0, 0, 40, 30))); err != nil {
			t.Fatal(err)
		}
		for _, data := range [][]byte{encodeJPEG(t, 33, 17), grey.Bytes()} {
			if _, begun, err := rows(data, imagelimit.Config{}); !errors.Is(err, imagelimit.ErrRowsUnsupported) || begun {
				t.Fatalf("error %v, begun %v: want ErrRowsUnsupported before begin", err, begun)
			}
		}
	})
	t.Run("pixel bomb refused from the header", func(t *testing.T) {
		if _, begun, err := rows(pngHeader(100000, 100000), imagelimit.Config{MaxPixels: 1000}); !errors.Is(err, imagelimit.ErrTooManyPixels) || begun {
			t.Fatalf("error %v, begun %v: want ErrTooManyPixels before begin", err, begun)
		}
	})
	t.Run("truncated png fails", func(t *testing.T) {
		if _, _, err := rows(rgba[:len(rgba)-30], imagelimit.Config{}); err == nil || errors.Is(err, imagelimit.ErrRowsUnsupported) {
			t.Fatalf("error %v, want a decoding error", err)
		}
	})
	t.Run("byte limit fails with ErrTooLarge", func(t *testing.T) {
		if _, _, err := rows(rgba, imagelimit.Config{MaxBytes: int64(len(rgba) - 20)}); !errors.Is(err, imagelimit.ErrTooLarge) {
			t.Fatalf("error %v, want ErrTooLarge", err)
		}
	})
	t.Run("begin's and each's errors come back as they are", func(t *testing.T) {
		mine := errors.New("mine")
		err := imagelimit.DecodeRows(bytes.NewReader(rgba), imagelimit.Config{}, func(int, int) error { return mine }, nil)
		if err != mine {
			t.Fatalf("begin: error %v, want its own", err)
		}
		err = imagelimit.DecodeRows(bytes.NewReader(rgba), imagelimit.Config{MaxBytes: int64(len(rgba) - 20)},
			func(int, int) error { return nil }, func(y int, _ []byte) error {
				if y == 3 {
					return mine
				}
				return nil
			})
		if err != mine {
			t.Fatalf("each: error %v, want its own", err)
		}
	})
}
