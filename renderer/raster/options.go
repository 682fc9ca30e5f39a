package raster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/dpi"
	"github.com/pressroom/pressroom/renderer/imagelimit"
)

// Errors of a render. Source and decode failures are wrapped with the object they belong to.
var (
	// ErrInvalidOptions: Options.Width is negative, or the document is nil.
	ErrInvalidOptions = errors.New("raster: invalid options")
	// ErrOutputTooLarge: the output would have more pixels than Options.Limits.MaxPixels.
	ErrOutputTooLarge = errors.New("raster: output too large")
	// ErrNoLoader: the document has sources (src, fontUrl, backgroundUrl) but Options.Loader is nil.
	ErrNoLoader = errors.New("raster: no loader for the document's sources")
	// ErrUnsupportedSource: the Loader cannot resolve this kind of source (e.g. a URL given to DirLoader).
	ErrUnsupportedSource = errors.New("raster: unsupported source")
)

// Loader resolves a source (an image src, fontUrl or backgroundUrl) to its bytes. The caller closes the
// reader. Implementations: DirLoader for the command line; the renderer service's blob store.
type Loader interface {
	Open(ctx context.Context, src string) (io.ReadCloser, error)
}

// LoaderFunc adapts a function to Loader.
type LoaderFunc func(ctx context.Context, src string) (io.ReadCloser, error)

// Open implements Loader.
func (f LoaderFunc) Open(ctx context.Context, src string) (io.ReadCloser, error) { return f(ctx, src) }

// DirLoader reads sources from a folder: relative paths ("./" or "../", see design.SourceKindOf) resolve
// against Dir, and so do blob keys (a local blob store is a folder of keys). URLs are refused with
// ErrUnsupportedSource: the command line does not fetch from the network.
type DirLoader struct {
	Dir string
}

// Open implements Loader.
func (l DirLoader) Open(ctx context.Context, src string) (io.ReadCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch design.SourceKindOf(src) {
	case design.SourceRelative, design.SourceBlobKey:
		return os.Open(filepath.Join(l.Dir, filepath.FromSlash(src)))
	case design.SourceURL:
		return nil, fmt.Errorf("%w: %s: URLs are not read from a folder", ErrUnsupportedSource, src)
	}
	return nil, fmt.Errorf("%w: %q", ErrUnsupportedSource, src)
}

// Options tune a render. The zero value renders at the full print size with the default limits.
type Options struct {
	// Width is the output width in pixels; 0 means the print space width. The height follows the print
	// space's aspect ratio. ExportWidth and PreviewWidth give the other sizes.
	Width int
	// Loader resolves sources. Nil is fine for documents without sources.
	Loader Loader
	// Limits bound every decoded source (header checked before decoding) and the output's pixel count; zero
	// fields mean imagelimit's defaults (sized for a 13500x16200 print file).
	Limits imagelimit.Config
	// Concurrency is how many goroutines resample and encode; 0 means runtime.GOMAXPROCS(0).
	Concurrency int
	// Level is the PNG deflate level passed to pngenc; 0 means pngenc's default.
	Level int
	// Observe, when set, is called after every step with its name and duration (for metrics and tracing).
	Observe func(step string, elapsed time.Duration)
}

// Report says how a render went besides the pixels.
type Report struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	// DPI is the effective-DPI assessment of the document's images.
	DPI dpi.Report `json:"dpi"`
	// FontFallbacks lists the texts drawn in the default font instead of the one asked for.
	FontFallbacks []FontFallback `json:"font_fallbacks,omitempty"`
	// Warnings lists other things a reviewer may want to know, e.g. limited text shrunk to fit.
	Warnings []Warning `json:"warnings,omitempty"`
}

// FontFallback is a text object drawn in Roboto because its font could not be used.
type FontFallback struct {
	ObjectID string `json:"object_id"`
	// Requested is the font asked for: the fontUrl, or the fontFamily when there is no fontUrl.
	Requested string `json:"requested"`
	Reason    string `json:"reason"`
}

// Warning is a note about one object.
type Warning struct {
	ObjectID string `json:"object_id"`
	Message  string `json:"message"`
}

// Spec constants of the output sizes.
const (
	// ExportBaseWidth is the design export width before the multipliers.
	ExportBaseWidth = 1000
	// PreviewLongSide is the long side of a PNG export "not at original size".
	PreviewLongSide = 1920
)

// ExportWidth is the design export width: 1000, times 1.5 when the print space is more than 1.5
// times as wide as it is tall, times 3 for the full-3D print type (so 1000, 1500, 3000 or 4500, the
// design widths).
func ExportWidth(ps design.PrintSpace) int {
	w := float64(ExportBaseWidth)
	if ps.Height > 0 && float64(ps.Width)/float64(ps.Height) > 1.5 {
		w *= 1.5
	}
	if ps.PrintType == design.PrintTypeFull3D {
		w *= 3
	}
	return int(w)
}

// PreviewWidth is the width that puts the print space's long side at 1920 pixels.
func PreviewWidth(ps design.PrintSpace) int {
	if ps.Width >= ps.Height {
		return PreviewLongSide
	}
	return max(1, int(math.Round(float64(PreviewLongSide)*float64(ps.Width)/float64(ps.Height))))
}

// OutputSize is the canvas size for an output width (0 = print width).
func OutputSize(ps design.PrintSpace, width int) (w, h int) {
	if width == 0 {
		return ps.Width, ps.Height
	}
	return width, max(1, int(math.Round(float64(ps.Height)*float64(width)/float64(ps.Width))))
}
