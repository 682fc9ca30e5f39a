package mockup

import (
	"fmt"
	"image"
	"io"
	"path/filepath"
	"strings"

	"github.com/pressroom/pressroom/renderer/pngenc"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// Format is an output file format.
type Format string

// Output formats.
const (
	FormatPNG  Format = "png"
	FormatWebP Format = "webp"
)

// WebPQuality is the WebP quality of every image size Pressroom serves.
const WebPQuality = 90

// FormatOf picks the format from a file name's extension (.png, .webp).
func FormatOf(name string) (Format, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png":
		return FormatPNG, nil
	case ".webp":
		return FormatWebP, nil
	}
	return "", fmt.Errorf("%s: unknown output format; want a .png or .webp name", name)
}

// PNGLevel is the deflate level of mockup PNGs. pngenc's adaptive default makes a 2000 px mockup about
// 480 KB in 250-310 ms of one core, level 2 about 650 KB in 80-110 ms (BenchmarkRender): two to three times
// the rendering-and-encoding throughput for files a third larger, which the bulk target (thousands of
// mockups per run) favours; browsers get the WebP variants anyway.
const PNGLevel = 2

// Encode writes a rendered mockup as PNG (renderer/pngenc at PNGLevel) or lossy WebP at WebPQuality
// (renderer/webpenc, which needs a cgo build).
func Encode(w io.Writer, img *image.RGBA, f Format) error {
	switch f {
	case FormatPNG:
		return pngenc.Encode(w, img, pngenc.Options{Level: PNGLevel})
	case FormatWebP:
		return webpenc.Encode(w, img, WebPQuality)
	}
	return fmt.Errorf("mockup: unknown format %q", f)
}
