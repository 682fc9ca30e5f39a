package raster

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"image"
	"image/color"
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
