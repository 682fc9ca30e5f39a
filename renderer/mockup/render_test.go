package mockup

import (
	"context"
	"errors"
	"image"
	"image/color"
	"os"
	"strings"
	"testing"
	"time"
)

func TestRenderErrors(t *testing.T) {
	quad := "[[4, 4], [12, 4], [12, 12], [4, 12]]"
	print := solidRGBA(4, 4, blue)
	tests := []struct {
		name    string
		extra   string
		files   map[string]image.Image
		edit    func(l *memLoader)
		opt     Options
		print   image.Image
		wantErr error
		wantIn  string
	}{
		{name: "missing mask file", opt: Options{Size: 16}, extra: `, "mask": "mask.png"`, wantErr: os.ErrNotExist, wantIn: `template synthetic: mask "mask.png"`},
		{name: "missing base", opt: Options{Size: 16}, edit: func(l *memLoader) { delete(l.files, "base.png") }, wantErr: ErrInvalidTemplate, wantIn: `base "base.png"`},
		{name: "mask of the wrong size", opt: Options{Size: 16}, extra: `, "mask": "mask.png"`, files: map[string]image.Image{"mask.png": solidGray(8, 16, 255)},
			wantErr: ErrInvalidTemplate, wantIn: `mask "mask.png" is 8x16, want the photo's 16x16`},
		{name: "base of the wrong size", opt: Options{Size: 16}, edit: func(l *memLoader) { l.files["base.png"] = pngOf(t, solidRGBA(32, 32, white)) },
			wantErr: ErrInvalidTemplate, wantIn: `base "base.png" is 32x32`},
		{name: "undecodable shadow", opt: Options{Size: 16}, extra: `, "shadow": "shadow.png"`, edit: func(l *memLoader) { l.files["shadow.png"] = []byte("not an image") },
			wantErr: ErrInvalidTemplate, wantIn: `shadow "shadow.png": imagelimit: unknown image format`},
		{name: "size not in the template", opt: Options{Size: 500}, wantErr: ErrInvalidOptions, wantIn: "size 500: template synthetic has sizes [16]"},
		{name: "default size not in the template", wantErr: ErrInvalidOptions, wantIn: "size 2000"},
		{name: "bad colour", opt: Options{Size: 16, Color: "blue"}, wantErr: ErrInvalidOptions, wantIn: `"blue": want #rgb or #rrggbb`},
		{name: "empty print", opt: Options{Size: 16}, print: image.NewRGBA(image.Rectangle{}), wantErr: ErrInvalidOptions, wantIn: "empty print file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl, l := synthetic(t, 16, quad, tt.extra, tt.files)
			if tt.edit != nil {
				tt.edit(l)
			}
			p := tt.print
			if p == nil {
				p = print
			}
			_, err := newRenderer(t, l).Render(context.Background(), p, tpl, tt.opt)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantIn) {
				t.Errorf("err = %q, want it to mention %q", err, tt.wantIn)
			}
		})
	}
}

func TestRenderRefusesA3DTemplate(t *testing.T) {
	tpl, l := synthetic(t, 16, "[[4, 4], [12, 4], [12, 12], [4, 12]]", "", nil)
	tpl.Glb = "tee.glb" // Parse refuses this too; a Template edited in code must not slip through
	if _, err := newRenderer(t, l).Render(context.Background(), solidRGBA(4, 4, blue), tpl, Options{Size: 16}); !errors.Is(err, ErrNotFlat) {
		t.Errorf("err = %v, want ErrNotFlat", err)
	}
}

func TestRenderCancelled(t *testing.T) {
	tpl, l := synthetic(t, 16, "[[4, 4], [12, 4], [12, 12], [4, 12]]", "", nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newRenderer(t, l).Render(ctx, solidRGBA(4, 4, blue), tpl, Options{Size: 16}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestRenderSmallerSizeAndCrop(t *testing.T) {
	// a 64x64 photo, left half black and right half white, cropped to its right 32x64 and rendered at 32:
	// a 16x32 white mockup with the print where the quad is
	tpl, l := synthetic(t, 64, "[[40, 8], [56, 8], [56, 24], [40, 24]]", `, "crop": {"x": 32, "y": 0, "width": 32, "height": 64}`, nil)
	tpl.Sizes = []int{64, 32}
	base := solidRGBA(64, 64, white)
	for y := range 64 {
		for x := range 32 {
			base.SetRGBA(x, y, color.RGBA{0, 0, 0, 255})
		}
	}
	l.files["base.png"] = pngOf(t, base)
	out, err := newRenderer(t, l).Render(context.Background(), solidRGBA(8, 8, blue), tpl, Options{Size: 32})
	if err != nil {
		t.Fatal(err)
	}
	if out.Rect.Dx() != 16 || out.Rect.Dy() != 32 {
		t.Fatalf("size %v, want 16x32", out.Rect.Size())
	}
	// the quad (40..56, 8..24) is (4..12, 4..12) in the crop at half size
	if got := at(out, 8, 8); got != blue {
		t.Errorf("centre of the print area %v, want blue", got)
	}
	if got := at(out, 1, 20); got != white {
		t.Errorf("outside the print area %v, want the white of the cropped base", got)
	}
}

func TestRenderObservesSteps(t *testing.T) {
	tpl, l := synthetic(t, 16, "[[4, 4], [12, 4], [12, 12], [4, 12]]", "", nil)
	var steps []string
	_, err := newRenderer(t, l).Render(context.Background(), solidRGBA(4, 4, blue), tpl, Options{Size: 16,
		Observe: func(s string, _ time.Duration) { steps = append(steps, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(steps, ",") != "template,tint,place" {
		t.Errorf("steps %v", steps)
	}
}

func TestConfig(t *testing.T) {
	cfg, err := LoadConfig(func(name string) (string, bool) {
		return map[string]string{EnvCacheBytes: "64_000_000"}[name], name == EnvCacheBytes
	})
	if err != nil || cfg.CacheBytes != 64_000_000 {
		t.Errorf("LoadConfig = %+v, %v", cfg, err)
	}
	_, err = LoadConfig(func(name string) (string, bool) { return "lots", name == EnvCacheBytes })
	if err == nil || !strings.Contains(err.Error(), EnvCacheBytes) {
		t.Errorf("bad value: %v, want an error naming %s", err, EnvCacheBytes)
	}
	if err := (Config{CacheBytes: -1}).Validate(); err == nil || !strings.Contains(err.Error(), EnvCacheBytes) {
		t.Errorf("negative budget: %v", err)
	}
	if _, err := New(DefaultConfig(), nil); err == nil {
		t.Error("New accepted a nil loader")
	}
}

func TestRenderValidatesTemplatesBuiltInCode(t *testing.T) {
	tpl, l := synthetic(t, 16, "[[4, 4], [12, 4], [12, 12], [4, 12]]", "", nil)
	tpl.Quad[2] = Point{40, 12}
	_, err := newRenderer(t, l).Render(context.Background(), solidRGBA(4, 4, blue), tpl, Options{Size: 16})
	if !errors.Is(err, ErrInvalidTemplate) || !strings.Contains(err.Error(), "quad[2]") {
		t.Errorf("err = %v, want the quad outside the photo", err)
	}
}
