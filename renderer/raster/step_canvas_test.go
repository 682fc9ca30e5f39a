package raster

import (
	"context"
	"errors"
	"testing"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/imagelimit"
)

func TestPrepareCanvasStep(t *testing.T) {
	tests := []struct {
		name         string
		ps           design.PrintSpace
		width        int
		maxPixels    int64
		wantW, wantH int
		wantScale    float64
		wantErr      error
	}{
		{name: "full size", ps: printSpace(4500, 5400), wantW: 4500, wantH: 5400, wantScale: 1},
		{name: "export width", ps: printSpace(4500, 5400), width: 1000, wantW: 1000, wantH: 1200, wantScale: 1000.0 / 4500},
		{name: "3x", ps: printSpace(4500, 5400), width: 13500, wantW: 13500, wantH: 16200, wantScale: 3},
		{name: "height rounds", ps: printSpace(3, 2), width: 4, wantW: 4, wantH: 3, wantScale: 4.0 / 3},
		{name: "over the pixel limit", ps: printSpace(4500, 5400), width: 13501, maxPixels: 13500 * 16200, wantErr: ErrOutputTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &state{doc: &design.Document{PrintSpace: tt.ps}, opt: Options{Width: tt.width,
				Limits: imagelimit.Config{MaxPixels: tt.maxPixels}}}
			if s.opt.Limits.MaxPixels == 0 {
				s.opt.Limits.MaxPixels = imagelimit.DefaultMaxPixels
			}
			err := prepareCanvasStep().Run(context.Background(), s)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if b := s.canvas.Bounds(); b.Dx() != tt.wantW || b.Dy() != tt.wantH {
				t.Errorf("canvas %v, want %dx%d", b, tt.wantW, tt.wantH)
			}
			if s.scale != tt.wantScale {
				t.Errorf("scale %v, want %v", s.scale, tt.wantScale)
			}
			if s.canvas.Pix[0]|s.canvas.Pix[len(s.canvas.Pix)-1] != 0 {
				t.Error("canvas is not transparent")
			}
		})
	}
}

func TestOutputSizes(t *testing.T) {
	tests := []struct {
		name            string
		ps              design.PrintSpace
		export, preview int
	}{
		{"portrait", printSpace(4500, 5400), 1000, 1600},
		{"square", printSpace(3000, 3000), 1000, 1920},
		{"aspect exactly 1.5", printSpace(3000, 2000), 1000, 1920},
		{"wide (aspect above 1.5)", printSpace(4000, 2000), 1500, 1920},
		{"full 3D", design.PrintSpace{Width: 4500, Height: 5400, PrintType: design.PrintTypeFull3D}, 3000, 1600},
		{"full 3D and wide", design.PrintSpace{Width: 9000, Height: 3000, PrintType: design.PrintTypeFull3D}, 4500, 1920},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExportWidth(tt.ps); got != tt.export {
				t.Errorf("ExportWidth = %d, want %d", got, tt.export)
			}
			if got := PreviewWidth(tt.ps); got != tt.preview {
				t.Errorf("PreviewWidth = %d, want %d", got, tt.preview)
			}
		})
	}
}
