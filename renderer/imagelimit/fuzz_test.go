package imagelimit_test

import (
	"bytes"
	"testing"

	"github.com/pressroom/pressroom/renderer/imagelimit"
)

// FuzzDecode feeds arbitrary bytes to Decode under small limits: it must not
// panic, and whatever it accepts stays within the pixel limit. Seeds live in
// testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	f.Add(encodePNG(f, 5, 4))
	f.Add(encodeJPEG(f, 9, 3))
	f.Add(pngHeader(100000, 100000))
	cfg := imagelimit.Config{MaxPixels: 1 << 16, MaxBytes: 1 << 20}
	f.Fuzz(func(t *testing.T, in []byte) {
		img, _, err := imagelimit.Decode(bytes.NewReader(in), cfg)
		if err != nil {
			return
		}
		b := img.Bounds()
		if int64(b.Dx())*int64(b.Dy()) > cfg.MaxPixels {
			t.Fatalf("accepted %v, over %d pixels", b, cfg.MaxPixels)
		}
	})
}
