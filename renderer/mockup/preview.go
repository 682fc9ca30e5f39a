package mockup

import (
	"image"
	"io"
	"runtime"

	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/variant"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// previewSpec is the mockup preview: at most PreviewSize on either side.
var previewSpec = tasks.VariantSpec{Name: "mockup_preview", Width: PreviewSize, Height: PreviewSize}

// Preview is a made mockup scaled down to the preview size, PreviewSize on its longer side; a
// mockup already that small is returned as it is. It scales the pixels of the full mockup rather than
// rendering again. A mockup whose sides are the preview's times a power of two (the 2000 px flat
// mockups: 4) is halved until it fits (2x2 averages, as the place step's prefilter does): a box
// filter on its premultiplied pixels that costs a few milliseconds where a general resampler takes
// 60-90 (BenchmarkRender); any other size (the 1500x1875 3D mockups) is scaled as the upload
// variants are (variant.Scale).
func Preview(img image.Image) image.Image {
	b := img.Bounds()
	w, h := previewSpec.Size(b.Dx(), b.Dy())
	if m, ok := img.(*image.RGBA); ok && b.Min == (image.Point{}) && w < b.Dx() && b.Dx()%w == 0 && b.Dy()%h == 0 && b.Dx()/w == b.Dy()/h && isPowerOfTwo(b.Dx()/w) {
		for m.Rect.Dx() > w {
			m = halve(m, runtime.GOMAXPROCS(0))
		}
		return m
	}
	return variant.Scale(img, previewSpec)
}

// isPowerOfTwo reports whether k is 2, 4, 8, ...: the factors Preview can reach by halving.
func isPowerOfTwo(k int) bool { return k > 0 && k&(k-1) == 0 }

// EncodePreview writes the Preview of a made mockup (the premultiplied *image.RGBA of Render, or any
// decoded image) as lossy WebP at WebPQuality (renderer/webpenc, which needs a cgo build).
func EncodePreview(w io.Writer, img image.Image) error {
	return webpenc.Encode(w, Preview(img), WebPQuality)
}
