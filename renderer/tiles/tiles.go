package tiles

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"io"
	"math/bits"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/pressroom/pressroom/renderer/pngenc"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// Tile formats.
const (
	FormatWebP = "webp"
	FormatPNG  = "png"
)

// DefaultTileSize is the tile edge when Options.TileSize is 0.
const DefaultTileSize = 256

// DefaultQuality is the WebP quality when Options.Quality is 0 (the quality of every WebP image size).
const DefaultQuality = 90

// Manifest describes a pyramid; a viewer needs nothing else to ask for tiles.
type Manifest struct {
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	TileSize int    `json:"tile_size"`
	Levels   int    `json:"levels"`
	Format   string `json:"format"`
}

// NewManifest is the pyramid of a w x h image; tileSize 0 means DefaultTileSize and format "" WebP.
func NewManifest(w, h, tileSize int, format string) (Manifest, error) {
	if w < 1 || h < 1 {
		return Manifest{}, fmt.Errorf("tiles: image is %dx%d, want at least 1x1", w, h)
	}
	if tileSize == 0 {
		tileSize = DefaultTileSize
	}
	if tileSize < 16 || tileSize > 4096 {
		return Manifest{}, fmt.Errorf("tiles: tile size %d, want 16 to 4096", tileSize)
	}
	switch format {
	case "":
		format = FormatWebP
	case FormatWebP, FormatPNG:
	default:
		return Manifest{}, fmt.Errorf("tiles: format %q, want %s or %s", format, FormatWebP, FormatPNG)
	}
	// The last level is the smallest l with 2^l >= the long side.
	levels := bits.Len(uint(max(w, h)-1)) + 1
	return Manifest{Width: w, Height: h, TileSize: tileSize, Levels: levels, Format: format}, nil
}

// LevelSize is the image size at a level.
func (m Manifest) LevelSize(level int) (w, h int) {
	shift := m.Levels - 1 - level
	return ceilShift(m.Width, shift), ceilShift(m.Height, shift)
}

// Grid is how many tile columns and rows a level has.
func (m Manifest) Grid(level int) (cols, rows int) {
	w, h := m.LevelSize(level)
	return (w + m.TileSize - 1) / m.TileSize, (h + m.TileSize - 1) / m.TileSize
}

// TileCount is the number of tiles in the whole pyramid.
func (m Manifest) TileCount() int {
	n := 0
	for l := range m.Levels {
		c, r := m.Grid(l)
		n += c * r
	}
	return n
}

// Name is a tile's path inside the pyramid, "level/col_row.format" as Deep Zoom viewers ask for it.
func (m Manifest) Name(level, col, row int) string {
	return fmt.Sprintf("%d/%d_%d.%s", level, col, row, m.Format)
}

func ceilShift(v, shift int) int { return (v + 1<<shift - 1) >> shift }

// Tile is one encoded tile.
type Tile struct {
	Level, Col, Row int
	Data            []byte
}

// Options tune Generate; the zero value makes 256 px WebP tiles at quality 90 on every core.
type Options struct {
	TileSize int
	// Format is FormatWebP (the default; needs a cgo build) or FormatPNG.
	Format  string
	Quality int
	// Concurrency is how many tiles are encoded at once; 0 means runtime.GOMAXPROCS(0).
	Concurrency int
}

// Generate builds img's pyramid and calls emit for every tile, level by level from the coarsest; emit
// may be called from several goroutines at once. The first error, from emit or from ctx, stops it.
func Generate(ctx context.Context, img image.Image, opt Options, emit func(Tile) error) (Manifest, error) {
	b := img.Bounds()
	m, err := NewManifest(b.Dx(), b.Dy(), opt.TileSize, opt.Format)
	if err != nil {
		return m, err
	}
	if m.Format == FormatWebP && !webpenc.Available {
		return m, webpenc.ErrUnavailable
	}
	if opt.Quality == 0 {
		opt.Quality = DefaultQuality
	}
	if opt.Quality < 1 || opt.Quality > 100 {
		return m, fmt.Errorf("tiles: quality %d, want 1 to 100", opt.Quality)
	}
	workers := opt.Concurrency
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	levels, err := buildLevels(ctx, img, m, workers)
	if err != nil {
		return m, err
	}
	encode := func(w io.Writer, tile image.Image) error {
		if m.Format == FormatPNG {
			return pngenc.Encode(w, tile, pngenc.Options{Concurrency: 1})
		}
		return webpenc.Encode(w, tile, opt.Quality)
	}
	for l, level := range levels {
		cols, rows := m.Grid(l)
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(workers)
		for row := range rows {
			for col := range cols {
				g.Go(func() error {
					if err := gctx.Err(); err != nil {
						return err
					}
					r := image.Rect(col*m.TileSize, row*m.TileSize, (col+1)*m.TileSize, (row+1)*m.TileSize).
						Add(level.Bounds().Min).Intersect(level.Bounds())
					var buf bytes.Buffer
					if err := encode(&buf, level.(subImager).SubImage(r)); err != nil {
						return fmt.Errorf("tiles: encode %s: %w", m.Name(l, col, row), err)
					}
					return emit(Tile{Level: l, Col: col, Row: row, Data: buf.Bytes()})
				})
			}
		}
		if err := g.Wait(); err != nil {
			return m, err
		}
	}
	return m, nil
}

type subImager interface {
	SubImage(image.Rectangle) image.Image
}

// buildLevels returns every level's image, coarsest first; the last is img itself when it is an
// *image.RGBA or *image.NRGBA (the PNG decoder's types), else a premultiplied copy.
func buildLevels(ctx context.Context, img image.Image, m Manifest, workers int) ([]image.Image, error) {
	full := img
	switch img.(type) {
	case *image.RGBA, *image.NRGBA:
	default:
		c := image.NewRGBA(image.Rect(0, 0, m.Width, m.Height))
		draw.Draw(c, c.Bounds(), img, img.Bounds().Min, draw.Src)
		full = c
	}
	levels := make([]image.Image, m.Levels)
	levels[m.Levels-1] = full
	for l := m.Levels - 2; l >= 0; l-- {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		levels[l] = halve(levels[l+1], workers)
	}
	return levels, nil
}

// halve averages 2x2 blocks of src (an *image.RGBA or *image.NRGBA) into a premultiplied image half
// its size, rounded up; a block cut by the edge averages the pixels it has.
func halve(src image.Image, workers int) *image.RGBA {
	sb := src.Bounds()
	sw, sh := sb.Dx(), sb.Dy()
	dst := image.NewRGBA(image.Rect(0, 0, (sw+1)/2, (sh+1)/2))
	var pix []uint8
	var stride int
	_, premultiplied := src.(*image.RGBA)
	switch s := src.(type) {
	case *image.RGBA:
		pix, stride = s.Pix[s.PixOffset(sb.Min.X, sb.Min.Y):], s.Stride
	case *image.NRGBA:
		pix, stride = s.Pix[s.PixOffset(sb.Min.X, sb.Min.Y):], s.Stride
	default:
		panic(fmt.Sprintf("tiles: halve of %T", src))
	}
	dh := dst.Bounds().Dy()
	var wg sync.WaitGroup
	chunk := (dh + workers - 1) / workers
	for y0 := 0; y0 < dh; y0 += chunk {
		wg.Go(func() {
			for dy := y0; dy < min(y0+chunk, dh); dy++ {
				halveRow(dst.Pix[dy*dst.Stride:], pix, stride, 2*dy, sw, sh, premultiplied)
			}
		})
	}
	wg.Wait()
	return dst
}

// halveRow writes one destination row from source rows sy and sy+1 (when there is one).
func halveRow(out, pix []uint8, stride, sy, sw, sh int, premultiplied bool) {
	rows := min(2, sh-sy)
	for dx := 0; dx < (sw+1)/2; dx++ {
		cols := min(2, sw-2*dx)
		var r, g, b, a uint32
		for j := range rows {
			p := pix[(sy+j)*stride+8*dx:]
			for i := range cols {
				q := p[4*i : 4*i+4 : 4*i+4]
				pa := uint32(q[3])
				if premultiplied {
					r, g, b = r+uint32(q[0]), g+uint32(q[1]), b+uint32(q[2])
				} else {
					r, g, b = r+mul255(q[0], pa), g+mul255(q[1], pa), b+mul255(q[2], pa)
				}
				a += pa
			}
		}
		n := uint32(rows * cols)
		o := out[4*dx : 4*dx+4 : 4*dx+4]
		o[0], o[1], o[2], o[3] = uint8((r+n/2)/n), uint8((g+n/2)/n), uint8((b+n/2)/n), uint8((a+n/2)/n)
	}
}

// mul255 is c*a/255 rounded, the premultiplication of one channel.
func mul255(c uint8, a uint32) uint32 {
	v := uint32(c)*a + 128
	return (v + v>>8) >> 8
}
