package raster

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/imagelimit"
)

// An upright image drawn through a ring of its rows is exactly the image drawn whole: the same
// resampler reads the same rows, whatever the placement and however many workers share the bands.
func TestDrawUprightRowsMatchesTheWholeImage(t *testing.T) {
	src := noise(300, 1400)
	data := pngBytes(t, src)
	for _, tt := range []struct {
		name string
		o    design.ImageObject
	}{
		{"as it is", design.ImageObject{X: 40, Y: 30, Width: 300, Height: 1400}},
		{"between pixels", design.ImageObject{X: 60.4, Y: 80.7, Width: 300, Height: 1400}},
		{"enlarged", design.ImageObject{X: -50, Y: -20, Width: 450, Height: 2100}},
		{"shrunk a little", design.ImageObject{X: 10, Y: 10, Width: 240, Height: 1120}},
		{"past the canvas", design.ImageObject{X: 200, Y: 900, Width: 300, Height: 1400}},
		{"above the canvas", design.ImageObject{X: 0, Y: -1200, Width: 300, Height: 1400}},
		{"off the canvas", design.ImageObject{X: 0, Y: 1700, Width: 300, Height: 1400}},
	} {
		for _, workers := range []int{1, 3} {
			t.Run(tt.name, func(t *testing.T) {
				o := tt.o
				want := image.NewRGBA(image.Rect(0, 0, 500, 1600))
				if err := drawImage(context.Background(), want, whole{src}, &o, 1, workers); err != nil {
					t.Fatal(err)
				}
				got := image.NewRGBA(want.Rect)
				var placed image.Point
				err := drawUprightRows(context.Background(), got, bytes.NewReader(data), imagelimit.Config{}, &o, 1, workers,
					func(w, h int) { placed = image.Pt(w, h) })
				if err != nil {
					t.Fatal(err)
				}
				if placed != image.Pt(300, 1400) {
					t.Fatalf("placed %v", placed)
				}
				if !bytes.Equal(got.Pix, want.Pix) {
					t.Fatal("the rows drawn through the ring differ from the image drawn whole")
				}
			})
		}
	}
}

// A full-page upright artwork costs the canvas and a ring of rows, not the canvas and a second
// full-page image: what the render allocates stays far under the two.
func TestRenderKeepsAnUprightArtworkOutOfMemory(t *testing.T) {
	const w, h = 1200, 4000
	data := pngBytes(t, solid(w, h, color.NRGBA{200, 30, 60, 255}))
	doc := &design.Document{Version: 1, PrintSpace: printSpace(w, h), Objects: []design.Object{
		&design.ImageObject{ID: "art", Src: "u/1/art.png", Width: w, Height: h},
	}}
	opt := Options{Loader: memLoader{"u/1/art.png": data}, Limits: imagelimit.DefaultConfig(), Concurrency: 2}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	canvas, report, err := Render(context.Background(), doc, opt)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.DPI.Objects) != 1 || report.DPI.Objects[0].SourceWidth != w {
		t.Fatalf("report %+v", report.DPI)
	}
	decoded := int64(4 * w * h) // the canvas, and the artwork decoded whole
	alloc := int64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("a %dx%d artwork on its %dx%d canvas: %d MB allocated (canvas %d MB)", w, h, w, h, alloc>>20, decoded>>20)
	if alloc > decoded+decoded/4 {
		t.Errorf("rendering allocated %d MB: want the canvas (%d MB) and at most a quarter more, not a second full image",
			alloc>>20, decoded>>20)
	}
	if canvas.RGBAAt(w/2, h/2).A == 0 {
		t.Error("nothing drawn")
	}
}

// Shrunk far, or not an RGB or RGBA PNG: drawn whole instead, with nothing drawn here.
func TestDrawUprightRowsLeavesOtherImagesWhole(t *testing.T) {
	for _, tt := range []struct {
		name string
		data []byte
		o    design.ImageObject
		want error
	}{
		{"shrunk to a fortieth", pngBytes(t, noise(100, 4000)), design.ImageObject{Width: 10, Height: 100}, errWholeImage},
		{"grey", pngBytes(t, image.NewGray(image.Rect(0, 0, 100, 4000))), design.ImageObject{Width: 100, Height: 400}, imagelimit.ErrRowsUnsupported},
	} {
		t.Run(tt.name, func(t *testing.T) {
			canvas := image.NewRGBA(image.Rect(0, 0, 300, 500))
			o := tt.o
			called := false
			err := drawUprightRows(context.Background(), canvas, bytes.NewReader(tt.data), imagelimit.Config{}, &o, 1, 2,
				func(int, int) { called = true })
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if called || !bytes.Equal(canvas.Pix, image.NewRGBA(canvas.Rect).Pix) {
				t.Fatal("drew although it refused")
			}
		})
	}
}

// Damage anywhere in the file fails the drawing, also below the rows the canvas needs, and a drawing
// stopped by its context stops the decoding: nothing waits forever.
func TestDrawUprightRowsFailures(t *testing.T) {
	data := pngBytes(t, noise(200, 3000))
	damagedIEND := bytes.Clone(data)
	damagedIEND[len(damagedIEND)-1] ^= 0xff
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		data []byte
		o    design.ImageObject
		want string
	}{
		{"cut short", context.Background(), data[:len(data)/2], design.ImageObject{Width: 200, Height: 3000}, "decode png"},
		{"damaged after the rows the canvas needs", context.Background(), damagedIEND, design.ImageObject{Width: 200, Height: 3000}, "invalid checksum"},
		{"cancelled", cancelled, data, design.ImageObject{Width: 200, Height: 3000}, context.Canceled.Error()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			canvas := image.NewRGBA(image.Rect(0, 0, 200, 400))
			o := tt.o
			err := drawUprightRows(tt.ctx, canvas, io.MultiReader(bytes.NewReader(tt.data)), imagelimit.Config{}, &o, 1, 2, func(int, int) {})
			if err == nil || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tt.want)) {
				t.Fatalf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}
