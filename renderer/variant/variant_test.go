package variant

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"sync/atomic"
	"testing"

	"github.com/hibiken/asynq"
	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

func artwork(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x / 16), uint8(y / 16), uint8((x + y) / 32), 255})
		}
	}
	return img
}

func TestSpecSize(t *testing.T) {
	tests := []struct {
		name       string
		variant    string
		w, h       int
		wantW, wan int
	}{
		{"design width of a 4500x5400 artwork", "design", 4500, 5400, 1500, 1800},
		{"design3x keeps 4500", "design3x", 4500, 5400, 4500, 5400},
		{"never scaled up", "design", 1000, 1200, 1000, 1200},
		{"preview box bounded by height", "preview", 4500, 5400, 400, 480},
		{"preview box bounded by width", "preview", 4000, 1000, 400, 100},
		{"tall image in thumb", "thumb", 100, 1000, 20, 200},
		{"favicon never below 1 px", "favicon", 10000, 10, 32, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, ok := tasks.LookupVariant(tc.variant)
			if !ok {
				t.Fatalf("no variant %q", tc.variant)
			}
			w, h := s.Size(tc.w, tc.h)
			if w != tc.wantW || h != tc.wan {
				t.Fatalf("Size(%d, %d) = %dx%d, want %dx%d", tc.w, tc.h, w, h, tc.wantW, tc.wan)
			}
		})
	}
	if len(tasks.Variants()) != 12 {
		t.Fatalf("%d variants, want 9 image sizes and 3 design widths", len(tasks.Variants()))
	}
}

func TestNewVariantJob(t *testing.T) {
	a, _ := tasks.NewVariantJob("u/1/uploads/a.png", "design")
	b, _ := tasks.NewVariantJob("u/1/uploads/a.png", "design")
	c, _ := tasks.NewVariantJob("u/1/uploads/a.png", "thumb")
	if a.TaskID != b.TaskID || a.TaskID == c.TaskID || a.Queue != "renderer.interactive" || a.Type != tasks.TypeVariant {
		t.Fatalf("jobs %+v %+v %+v", a, b, c)
	}
}

func newStore(t testing.TB) blob.Store {
	cfg := blob.DefaultConfig()
	cfg.Dir = t.TempDir()
	s, err := blob.New(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHandler(t *testing.T) {
	if !webpenc.Available {
		t.Skip("built without cgo: no WebP encoder")
	}
	ctx := context.Background()
	store := newStore(t)
	var encodes atomic.Int32
	enc := func(w io.Writer, img image.Image, q int) error {
		encodes.Add(1)
		return webpenc.Encode(w, img, q)
	}
	h, err := NewHandler(store, imagelimit.DefaultConfig(), enc)
	if err != nil {
		t.Fatal(err)
	}
	var src bytes.Buffer
	png.Encode(&src, artwork(1800, 600))
	key := "u/1/uploads/art.png"
	store.Put(ctx, key, bytes.NewReader(src.Bytes()), int64(src.Len()), "image/png")

	for _, name := range []string{"design", "thumb"} {
		job, _ := tasks.NewVariantJob(key, name)
		if err := h.ProcessTask(ctx, job.Task()); err != nil {
			t.Fatal(err)
		}
		r, info, err := store.Get(ctx, tasks.VariantKey(name, key))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := webp.DecodeConfig(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s is not WebP: %v", name, err)
		}
		s, _ := tasks.LookupVariant(name)
		w, hh := s.Size(1800, 600)
		if info.ContentType != "image/webp" || cfg.Width != w || cfg.Height != hh {
			t.Fatalf("%s: %s %dx%d, want image/webp %dx%d", name, info.ContentType, cfg.Width, cfg.Height, w, hh)
		}
	}
	// Delivered again: the stored variant is kept, nothing is rendered.
	job, _ := tasks.NewVariantJob(key, "design")
	if err := h.ProcessTask(ctx, job.Task()); err != nil || encodes.Load() != 2 {
		t.Fatalf("second delivery: err %v, %d encodes", err, encodes.Load())
	}

	for _, p := range []string{`{`, `{"key":"../x","variant":"design"}`, `{"key":"u/1/a.png","variant":"huge"}`,
		`{"key":"u/1/missing.png","variant":"design"}`} {
		if err := h.ProcessTask(ctx, asynq.NewTask(tasks.TypeVariant, []byte(p))); !errors.Is(err, asynq.SkipRetry) {
			t.Errorf("payload %s: err = %v, want SkipRetry", p, err)
		}
	}
	store.Put(ctx, "u/1/notes.png", bytes.NewReader([]byte("text")), 4, "image/png")
	job, _ = tasks.NewVariantJob("u/1/notes.png", "design")
	if err := h.ProcessTask(ctx, job.Task()); !errors.Is(err, asynq.SkipRetry) {
		t.Errorf("text source: err = %v, want SkipRetry", err)
	}
}

// BenchmarkVariant4500 measures one variant of a 4500x5400 artwork, decode excluded (steps
// reported separately): scale and WebP encode at quality 90.
func BenchmarkVariant4500(b *testing.B) {
	if !webpenc.Available {
		b.Skip("built without cgo")
	}
	src := artwork(4500, 5400)
	var encoded bytes.Buffer
	png.Encode(&encoded, src)
	h, _ := NewHandler(newStore(b), imagelimit.DefaultConfig(), webpenc.Encode)
	for _, name := range []string{"design", "design3x", "full_hd", "preview", "thumb"} {
		spec, _ := tasks.LookupVariant(name)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := h.Render(context.Background(), io.Discard, src, spec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("decode_png", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := imagelimit.Decode(bytes.NewReader(encoded.Bytes()), imagelimit.DefaultConfig()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("task_design_end_to_end", func(b *testing.B) {
		store := newStore(b)
		h, _ := NewHandler(store, imagelimit.DefaultConfig(), webpenc.Encode)
		ctx := context.Background()
		store.Put(ctx, "u/1/big.png", bytes.NewReader(encoded.Bytes()), int64(encoded.Len()), "image/png")
		job, _ := tasks.NewVariantJob("u/1/big.png", "design")
		for b.Loop() {
			store.Delete(ctx, tasks.VariantKey("design", "u/1/big.png"))
			if err := h.ProcessTask(ctx, job.Task()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
