package raster

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/png"
	"testing"

	"github.com/pressroom/pressroom/renderer/design"
)

func TestEncodeStep(t *testing.T) {
	tests := []struct {
		name    string
		dpi     float64
		wantPPM uint32
	}{
		{"300 dpi", 300, 11811},
		{"72 dpi", 72, 2835},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			canvas := image.NewRGBA(image.Rect(0, 0, 3, 2))
			copy(canvas.Pix, []byte{255, 0, 0, 255, 0, 0, 0, 0, 64, 32, 0, 128})
			ps := printSpace(3, 2)
			ps.DPI = tt.dpi
			s := &state{doc: &design.Document{PrintSpace: ps}, canvas: canvas}
			var buf bytes.Buffer
			if err := encodeStep(&buf).Run(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("output does not decode: %v", err)
			}
			if d := diffImages(canvas, img); d.maxDelta > 1 {
				t.Errorf("decoded pixels differ: %s", d)
			}
			ppm, ok := physOf(buf.Bytes())
			if !ok || ppm != tt.wantPPM {
				t.Errorf("pHYs = %d (found %v), want %d pixels per metre", ppm, ok, tt.wantPPM)
			}
		})
	}
}

// physOf finds the pHYs chunk's x density in a PNG file.
func physOf(b []byte) (uint32, bool) {
	for i := 8; i+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[i:]))
		if string(b[i+4:i+8]) == "pHYs" && i+8+9 <= len(b) && b[i+8+8] == 1 {
			return binary.BigEndian.Uint32(b[i+8:]), true
		}
		i += 12 + n
	}
	return 0, false
}
