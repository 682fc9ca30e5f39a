package tiles

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"
	"testing"

	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/renderer/webpenc"
)

func TestNewManifestLevels(t *testing.T) {
	for _, tc := range []struct {
		w, h, levels int
		last         [2]int // size of level levels-2
	}{
		{1, 1, 1, [2]int{0, 0}},
		{2, 1, 2, [2]int{1, 1}},
		{256, 256, 9, [2]int{128, 128}},
		{257, 10, 10, [2]int{129, 5}},
		{13500, 16200, 15, [2]int{6750, 8100}},
	} {
		m, err := NewManifest(tc.w, tc.h, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		if m.Levels != tc.levels || m.TileSize != DefaultTileSize || m.Format != FormatWebP {
			t.Errorf("%dx%d: %+v, want %d levels of 256 px WebP tiles", tc.w, tc.h, m, tc.levels)
		}
		if w, h := m.LevelSize(m.Levels - 1); w != tc.w || h != tc.h {
			t.Errorf("%dx%d: last level %dx%d", tc.w, tc.h, w, h)
		}
		if w, h := m.LevelSize(0); w != 1 || h != 1 {
			t.Errorf("%dx%d: level 0 is %dx%d, want 1x1", tc.w, tc.h, w, h)
		}
		if m.Levels > 1 {
			if w, h := m.LevelSize(m.Levels - 2); w != tc.last[0] || h != tc.last[1] {
				t.Errorf("%dx%d: level %d is %dx%d, want %v", tc.w, tc.h, m.Levels-2, w, h, tc.last)
			}
		}
	}
}

func TestNewManifestRefuses(t *testing.T) {
	for _, tc := range []struct {
		w, h, size int
		format     string
	}{{0, 5, 0, ""}, {5, 5, 8, ""}, {5, 5, 0, "jpeg"}} {
		if _, err := NewManifest(tc.w, tc.h, tc.size, tc.format); err == nil {
			t.Errorf("NewManifest(%d, %d, %d, %q) = nil error", tc.w, tc.h, tc.size, tc.format)
		}
	}
}

func TestGridAndCount(t *testing.T) {
	m, _ := NewManifest(600, 300, 256, FormatPNG)
	if c, r := m.Grid(m.Levels - 1); c != 3 || r != 2 {
		t.Errorf("full level grid %dx%d, want 3x2", c, r)
	}
	// 11 levels: 600x300 (3x2 tiles), 300x150 (2x1), then nine of 150x75 and below (1x1 each).
	if m.Levels != 11 {
		t.Errorf("Levels = %d, want 11", m.Levels)
	}
	if n := m.TileCount(); n != 6+2+9 {
		t.Errorf("TileCount = %d, want 17", n)
	}
	if got := m.Name(3, 1, 2); got != "3/1_2.png" {
		t.Errorf("Name = %q", got)
	}
}

// collect runs Generate and returns the tiles by name, in the order they were emitted.
func collect(t *testing.T, img image.Image, opt Options) (Manifest, map[string][]byte, []Tile) {
	t.Helper()
	var mu sync.Mutex
	byName := map[string][]byte{}
	var order []Tile
	m, err := Generate(context.Background(), img, opt, func(tile Tile) error {
		mu.Lock()
		defer mu.Unlock()
		order = append(order, tile)
		byName[fmt.Sprintf("%d/%d_%d", tile.Level, tile.Col, tile.Row)] = tile.Data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m, byName, order
}

func testImage(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 7), uint8(y * 5), uint8(x ^ y), uint8(128 + (x+y)%128)})
		}
	}
	return img
}

func TestGenerateFullLevelIsExact(t *testing.T) {
	src := testImage(300, 170)
	m, tiles, order := collect(t, src, Options{TileSize: 128, Format: FormatPNG})
	if len(order) != m.TileCount() {
		t.Fatalf("emitted %d tiles, manifest says %d", len(order), m.TileCount())
	}
	last := m.Levels - 1
	cols, rows := m.Grid(last)
	for row := range rows {
		for col := range cols {
			img, err := png.Decode(bytes.NewReader(tiles[fmt.Sprintf("%d/%d_%d", last, col, row)]))
			if err != nil {
				t.Fatalf("tile %d,%d: %v", col, row, err)
			}
			want := image.Rect(col*128, row*128, min(300, (col+1)*128), min(170, (row+1)*128))
			if img.Bounds().Dx() != want.Dx() || img.Bounds().Dy() != want.Dy() {
				t.Fatalf("tile %d,%d is %v, want %v", col, row, img.Bounds(), want.Size())
			}
			for y := range want.Dy() {
				for x := range want.Dx() {
					got := color.NRGBAModel.Convert(img.At(img.Bounds().Min.X+x, img.Bounds().Min.Y+y))
					if exp := src.NRGBAAt(want.Min.X+x, want.Min.Y+y); got != exp {
						t.Fatalf("tile %d,%d pixel %d,%d = %v, want %v", col, row, x, y, got, exp)
					}
				}
			}
		}
	}
}

func TestGenerateCoarseLevelsFirst(t *testing.T) {
	_, _, order := collect(t, testImage(700, 500), Options{TileSize: 64, Format: FormatPNG, Concurrency: 3})
	for i := 1; i < len(order); i++ {
		if order[i].Level < order[i-1].Level {
			t.Fatalf("tile %d is of level %d after one of level %d", i, order[i].Level, order[i-1].Level)
		}
	}
}

// A transparent pixel's colour must not bleed into its opaque neighbour when levels are averaged.
func TestHalveAveragesPremultiplied(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	src.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	src.SetNRGBA(1, 0, color.NRGBA{0, 255, 0, 0})
	got := color.NRGBAModel.Convert(halve(src, 1).At(0, 0)).(color.NRGBA)
	if got.G != 0 || got.R < 254 || got.A != 128 {
		t.Errorf("average of opaque red and transparent green = %v, want red at half alpha", got)
	}
	// An odd edge averages what it has: a 3x1 image's last pixel stands alone.
	odd := image.NewRGBA(image.Rect(0, 0, 3, 1))
	odd.SetRGBA(2, 0, color.RGBA{10, 20, 30, 40})
	if got := halve(odd, 2).RGBAAt(1, 0); got != (color.RGBA{10, 20, 30, 40}) {
		t.Errorf("edge pixel = %v, want it unchanged", got)
	}
}

func TestGenerateWebP(t *testing.T) {
	if !webpenc.Available {
		t.Skip("built without cgo: no WebP encoder")
	}
	m, tiles, _ := collect(t, testImage(200, 100), Options{})
	img, err := webp.Decode(bytes.NewReader(tiles[fmt.Sprintf("%d/0_0", m.Levels-1)]))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 200 || img.Bounds().Dy() != 100 {
		t.Errorf("full-level tile is %v, want 200x100", img.Bounds())
	}
}

func TestGenerateStopsOnError(t *testing.T) {
	boom := errors.New("disk full")
	var mu sync.Mutex
	calls := 0
	_, err := Generate(context.Background(), testImage(600, 600), Options{TileSize: 64, Format: FormatPNG, Concurrency: 1},
		func(Tile) error {
			mu.Lock()
			defer mu.Unlock()
			calls++
			if calls == 3 {
				return boom
			}
			return nil
		})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the emit error", err)
	}
	if calls != 3 {
		t.Errorf("emit called %d times after failing on the 3rd", calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Generate(ctx, testImage(64, 64), Options{Format: FormatPNG}, func(Tile) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	if _, err := Generate(context.Background(), testImage(8, 8), Options{Format: FormatPNG, Quality: 101}, func(Tile) error { return nil }); err == nil {
		t.Error("quality 101 accepted")
	}
}

// Other image types (a decoded JPEG, a paletted PNG) are converted once.
func TestGenerateAnyImage(t *testing.T) {
	src := image.NewGray(image.Rect(0, 0, 40, 30))
	src.SetGray(39, 29, color.Gray{200})
	m, tiles, _ := collect(t, src, Options{Format: FormatPNG})
	img, err := png.Decode(bytes.NewReader(tiles[fmt.Sprintf("%d/0_0", m.Levels-1)]))
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _, a := img.At(39, 29).RGBA(); r>>8 != 200 || a>>8 != 255 {
		t.Errorf("pixel = %v, want grey 200", img.At(39, 29))
	}
}
