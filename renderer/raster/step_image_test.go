package raster

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"image"
	"image/color"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/imagelimit"
)

func TestDrawImageRotation(t *testing.T) {
	red, blue := color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}
	// A 40x20 image, red left half and blue right half, placed at (100, 100) on a 200x200 canvas. Rotation
	// is clockwise about (100, 100), the box's top-left corner: local point (lx, ly) lands at
	// (100 + lx cos - ly sin, 100 + lx sin + ly cos).
	tests := []struct {
		rotation float64
		probes   map[image.Point]color.RGBA
	}{
		{0, map[image.Point]color.RGBA{{110, 110}: red, {130, 110}: blue, {95, 110}: {}}},
		{90, map[image.Point]color.RGBA{{90, 110}: red, {90, 130}: blue, {110, 110}: {}}},
		{180, map[image.Point]color.RGBA{{90, 90}: red, {70, 90}: blue, {110, 110}: {}}},
		{-90, map[image.Point]color.RGBA{{110, 90}: red, {110, 70}: blue, {90, 90}: {}}},
		{450, map[image.Point]color.RGBA{{90, 110}: red, {90, 130}: blue}},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(fmtNum(tt.rotation), "-", "minus"), func(t *testing.T) {
			c := image.NewRGBA(image.Rect(0, 0, 200, 200))
			o := &design.ImageObject{ID: "a", X: 100, Y: 100, Width: 40, Height: 20, Rotation: tt.rotation}
			if err := drawImage(context.Background(), c, whole{halves(40, 20)}, o, 1, 1); err != nil {
				t.Fatal(err)
			}
			for p, want := range tt.probes {
				if got := c.RGBAAt(p.X, p.Y); !near(got, want, 8) {
					t.Errorf("pixel %v = %v, want %v", p, got, want)
				}
			}
		})
	}
}

func TestDrawImageStep(t *testing.T) {
	art := pngBytes(t, halves(40, 20))
	bomb := pngBytes(t, solid(100, 100, color.NRGBA{A: 255}))
	damagedIEND := bytes.Clone(art)
	damagedIEND[len(damagedIEND)-1] ^= 0xff // the IEND chunk's CRC
	tests := []struct {
		name      string
		src       string
		loader    Loader
		limits    imagelimit.Config
		wantErr   error
		wantInErr string
	}{
		{name: "draws and records the placement", src: "u/1/a.png", loader: memLoader{"u/1/a.png": art}},
		{name: "missing source", src: "u/1/missing.png", loader: memLoader{}, wantErr: os.ErrNotExist, wantInErr: "image a"},
		{name: "no loader", src: "u/1/a.png", wantErr: ErrNoLoader},
		{name: "not an image", src: "u/1/a.png", loader: memLoader{"u/1/a.png": []byte("hello")}, wantErr: imagelimit.ErrUnknownFormat},
		{name: "pixel limit", src: "u/1/a.png", loader: memLoader{"u/1/a.png": bomb},
			limits: imagelimit.Config{MaxPixels: 99 * 100, MaxBytes: 1 << 20}, wantErr: imagelimit.ErrTooManyPixels},
		// The rows are drawn while the file decodes; damage found after them still fails the step.
		{name: "damaged after the pixel data", src: "u/1/a.png", loader: memLoader{"u/1/a.png": damagedIEND}, wantInErr: "decode u/1/a.png"},
		{name: "pixel data cut short", src: "u/1/a.png", loader: memLoader{"u/1/a.png": art[:len(art)-40]}, wantInErr: "decode u/1/a.png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.limits.MaxPixels == 0 {
				tt.limits = imagelimit.DefaultConfig()
			}
			o := &design.ImageObject{ID: "a", Src: tt.src, X: 10, Y: 10, Width: 80, Height: 40}
			s := &state{doc: &design.Document{PrintSpace: printSpace(100, 100)}, scale: 1, workers: 1,
				canvas: image.NewRGBA(image.Rect(0, 0, 100, 100)), opt: Options{Loader: tt.loader, Limits: tt.limits}}
			err := drawImageStep(o).Run(context.Background(), s)
			wantFail := tt.wantErr != nil || tt.wantInErr != ""
			if (err != nil) != wantFail || !errors.Is(err, cmp.Or(tt.wantErr, err)) || (err != nil && !strings.Contains(err.Error(), tt.wantInErr)) {
				t.Fatalf("err = %v, want %v containing %q", err, tt.wantErr, tt.wantInErr)
			}
			if err != nil {
				return
			}
			if len(s.placements) != 1 || s.placements[0].SourceWidth != 40 || s.placements[0].PlacedWidth != 80 {
				t.Errorf("placements = %+v", s.placements)
			}
			if got := s.canvas.RGBAAt(20, 30); !near(got, color.RGBA{255, 0, 0, 255}, 2) {
				t.Errorf("pixel (20,30) = %v, want red", got)
			}
		})
	}
}

// TestDrawImageStepRotated: a rotated image is read from one opening of its source, whether it is
// drawn through a window of its rows or, refused by that path after its header, decoded whole from
// what was read plus the rest; either way it is drawn as drawImage draws it and its placement is
// recorded once.
func TestDrawImageStepRotated(t *testing.T) {
	gray := image.NewGray(image.Rect(0, 0, 60, 80))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i)
	}
	tests := []struct {
		name string
		img  image.Image
		o    design.ImageObject
	}{
		{"through its rows", noise(120, 900), design.ImageObject{X: 30, Y: 20, Width: 180, Height: 1350, Rotation: 4}},
		{"shrunk, drawn whole", noise(120, 900), design.ImageObject{X: 30, Y: 20, Width: 60, Height: 450, Rotation: 4}},
		{"grey, drawn whole", gray, design.ImageObject{X: 30, Y: 20, Width: 90, Height: 120, Rotation: -8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := pngBytes(t, tt.img)
			opens := 0
			loader := LoaderFunc(func(_ context.Context, src string) (io.ReadCloser, error) {
				opens++
				return io.NopCloser(bytes.NewReader(data)), nil
			})
			o := tt.o
			o.ID, o.Src = "a", "u/1/a.png"
			want := image.NewRGBA(image.Rect(0, 0, 300, 1500))
			if err := drawImage(context.Background(), want, whole{tt.img}, &o, 1, 1); err != nil {
				t.Fatal(err)
			}
			s := &state{doc: &design.Document{PrintSpace: printSpace(300, 1500)}, scale: 1, workers: 1,
				canvas: image.NewRGBA(want.Rect), opt: Options{Loader: loader, Limits: imagelimit.DefaultConfig()}}
			if err := drawImageStep(&o).Run(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			if opens != 1 {
				t.Errorf("the source was opened %d times; want once", opens)
			}
			b := tt.img.Bounds()
			if len(s.placements) != 1 || s.placements[0].SourceWidth != b.Dx() || s.placements[0].SourceHeight != b.Dy() {
				t.Errorf("placements = %+v", s.placements)
			}
			worst := 0
			for i := range want.Pix {
				worst = max(worst, int(want.Pix[i])-int(s.canvas.Pix[i]), int(s.canvas.Pix[i])-int(want.Pix[i]))
			}
			if worst > 1 {
				t.Fatalf("the step's canvas differs from drawImage's by up to %d", worst)
			}
			if bytes.Equal(s.canvas.Pix, image.NewRGBA(want.Rect).Pix) {
				t.Fatal("nothing drawn")
			}
		})
	}
}
