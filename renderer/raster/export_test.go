package raster

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/internal/benchdata"
)

func TestRenderSteps(t *testing.T) {
	doc := validFixtures(t)["text-rotated"]
	var names []string
	for _, s := range renderSteps(doc) {
		names = append(names, s.Name)
	}
	want := []string{"prepare canvas", "draw image art", "draw text tilted", "draw text vertical", "assess dpi"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
}

// TestRunChecksContextBetweenSteps cancels the context inside a step and expects the next step not to run.
func TestRunChecksContextBetweenSteps(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ran := 0
	steps := []step{
		{Name: "first", Run: func(context.Context, *state) error { ran++; cancel(); return nil }},
		{Name: "second", Run: func(context.Context, *state) error { ran++; return nil }},
	}
	_, err := run(ctx, &design.Document{PrintSpace: printSpace(1, 1)}, Options{}, steps)
	if !errors.Is(err, context.Canceled) || ran != 1 {
		t.Errorf("err = %v after %d steps, want context.Canceled after 1", err, ran)
	}
}

func TestExportErrors(t *testing.T) {
	doc := validFixtures(t)["image"]
	tests := []struct {
		name    string
		doc     *design.Document
		opt     Options
		wantErr error
	}{
		{"nil document", nil, Options{}, ErrInvalidOptions},
		{"negative width", doc, Options{Width: -1}, ErrInvalidOptions},
		{"no loader for a document with images", doc, Options{Width: 10}, ErrNoLoader},
		{"output above the pixel limit", doc, Options{Width: 30000, Loader: fixtureLoader()}, ErrOutputTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Export(context.Background(), tt.doc, tt.opt, io.Discard); !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestExportMatchesRender(t *testing.T) {
	doc := validFixtures(t)["text-display-transparent"]
	opt := Options{Width: 300, Loader: fixtureLoader()}
	img, rep, err := Render(context.Background(), doc, opt)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rep2, err := Export(context.Background(), doc, opt, &buf)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffImages(img, decoded); d.maxDelta > 1 {
		t.Errorf("exported PNG differs from the render: %s", d)
	}
	if diff := cmp.Diff(rep, rep2); diff != "" {
		t.Errorf("reports differ:\n%s", diff)
	}
}

func TestDirLoader(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "u", "7"), 0o755)
	os.WriteFile(filepath.Join(dir, "u", "7", "a.png"), []byte("key"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.png"), []byte("rel"), 0o644)
	tests := []struct {
		src     string
		want    string
		wantErr error
	}{
		{"u/7/a.png", "key", nil},
		{"./b.png", "rel", nil},
		{"./u/7/a.png", "key", nil},
		{"./missing.png", "", os.ErrNotExist},
		{"https://example.com/a.png", "", ErrUnsupportedSource},
		{"/etc/passwd", "", ErrUnsupportedSource},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			rc, err := DirLoader{Dir: dir}.Open(context.Background(), tt.src)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			defer rc.Close()
			got, _ := io.ReadAll(rc)
			if string(got) != tt.want {
				t.Errorf("read %q, want %q", got, tt.want)
			}
		})
	}
}

// referenceDoc writes the benchmark's reference design into a temporary folder.
func referenceDoc(b testing.TB) (*design.Document, Loader) {
	b.Helper()
	dir := b.TempDir()
	if err := benchdata.WriteReference(dir); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "design.json"))
	if err != nil {
		b.Fatal(err)
	}
	doc, err := design.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	return doc, DirLoader{Dir: dir}
}

// BenchmarkExport renders and encodes the reference design (4500x5400 artwork scaled to 4000x4800, two
// texts, 300 DPI) at the print size, at the design export size, and at a 1920 preview. -benchmem shows the
// allocation; scripts/bench measures peak RSS of the 3x export.
func BenchmarkExport(b *testing.B) {
	doc, loader := referenceDoc(b)
	for _, tc := range []struct {
		name  string
		width int
	}{{"4500x5400", 0}, {"export-1000", ExportWidth(doc.PrintSpace)}, {"preview-1920", PreviewWidth(doc.PrintSpace)}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Export(context.Background(), doc, Options{Width: tc.width, Loader: loader}, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRenderExtremes renders documents at the edges of what the parser accepts: nothing may panic, hang or
// allocate beyond the canvas.
func TestRenderExtremes(t *testing.T) {
	art := pngBytes(t, benchdata.Artwork(64, 48))
	text := func(mut func(*design.TextObject)) design.Object {
		o := &design.TextObject{ID: "t", Text: "WWWWWWWWWWWWWWWW", FontFamily: "Roboto", FontSize: 100, X: 0, Y: 0, Width: 500,
			TextWidth: design.TextWidthLimited, TextAlign: design.AlignCenter, MaxLength: 16,
			DisplayStyle: design.DisplayImageBackground, BackgroundURL: "u/a.png"}
		mut(o)
		return o
	}
	image := func(mut func(*design.ImageObject)) design.Object {
		o := &design.ImageObject{ID: "i", Src: "u/a.png", X: 0, Y: 0, Width: 500, Height: 500}
		mut(o)
		return o
	}
	tests := []struct {
		name string
		obj  design.Object
	}{
		{"image in a box smaller than a pixel", image(func(o *design.ImageObject) { o.Width, o.Height = 1e-6, 1e-6 })},
		{"huge image box", image(func(o *design.ImageObject) {
			o.X, o.Y, o.Width, o.Height = -design.MaxCoordinate, -design.MaxCoordinate, design.MaxCoordinate, design.MaxCoordinate
		})},
		{"huge rotated image box", image(func(o *design.ImageObject) {
			o.Width, o.Height, o.Rotation = design.MaxCoordinate, design.MaxCoordinate, 45
		})},
		{"tiny rotated image", image(func(o *design.ImageObject) { o.Width, o.Height, o.Rotation = 0.01, 0.01, -360 })},
		{"image far outside", image(func(o *design.ImageObject) { o.X = design.MaxCoordinate })},
		{"huge font", text(func(o *design.TextObject) { o.FontSize, o.TextWidth = design.MaxFontSize, design.TextWidthFlexible })},
		{"huge fixed text in a thin box", text(func(o *design.TextObject) {
			o.FontSize, o.Width, o.TextWidth = design.MaxFontSize, 1e-6, design.TextWidthFixed
		})},
		{"limited text in a thin box", text(func(o *design.TextObject) { o.Width = 1e-6 })},
		{"rotated text", text(func(o *design.TextObject) { o.Rotation, o.FontSize = 359.9, 5000 })},
		{"empty text", text(func(o *design.TextObject) { o.Text = "" })},
		{"newlines only", text(func(o *design.TextObject) { o.Text = "\n\n\n" })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := &design.Document{Version: 1, PrintSpace: printSpace(1000, 800), Objects: []design.Object{tt.obj}}
			if _, _, err := Render(context.Background(), doc, Options{Width: 64, Loader: memLoader{"u/a.png": art}}); err != nil {
				t.Fatalf("Render: %v", err)
			}
		})
	}
}
