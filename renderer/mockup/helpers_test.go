package mockup

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"sync/atomic"
	"testing"
)

// memLoader serves PNG files from memory and counts the opens.
type memLoader struct {
	files map[string][]byte
	opens atomic.Int64
}

func (m *memLoader) Open(ctx context.Context, src string) (io.ReadCloser, error) {
	m.opens.Add(1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, ok := m.files[src]
	if !ok {
		return nil, fmt.Errorf("%s: %w", src, os.ErrNotExist)
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

func pngOf(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func solidRGBA(w, h int, c color.RGBA) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(m.Pix); i += 4 {
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return m
}

func solidGray(w, h int, v uint8) *image.Gray {
	m := image.NewGray(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = v
	}
	return m
}

// leftGray is a map with value l on the columns left of x and r from x on.
func leftGray(w, h, x int, l, r uint8) *image.Gray {
	m := solidGray(w, h, r)
	for y := range h {
		for i := range x {
			m.Pix[y*w+i] = l
		}
	}
	return m
}

// synthetic is a small template with a white opaque base; extra fields are JSON members to add.
func synthetic(t testing.TB, side int, quad string, extra string, files map[string]image.Image) (*Template, *memLoader) {
	t.Helper()
	data := fmt.Sprintf(`{"version": 1, "id": "synthetic", "name": "test", "print_space": "front",
		"width": %d, "height": %d, "base": "base.png", "quad": %s, "sizes": [%d]%s}`, side, side, quad, side, extra)
	tpl, err := Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	l := &memLoader{files: map[string][]byte{"base.png": pngOf(t, solidRGBA(side, side, color.RGBA{255, 255, 255, 255}))}}
	for name, img := range files {
		l.files[name] = pngOf(t, img)
	}
	return tpl, l
}

func newRenderer(t testing.TB, l *memLoader) *Renderer {
	t.Helper()
	r, err := New(DefaultConfig(), l)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func at(m *image.RGBA, x, y int) color.RGBA { return m.RGBAAt(x, y) }

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}
