package mockup

import (
	"image"
	"io"

	"github.com/pressroom/pressroom/renderer/variant"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// previewSpec is the spec's mockup preview (design-and-bulk.md §9): at most PreviewSize on either side.
var previewSpec = variant.Spec{Name: "mockup_preview", Width: PreviewSize, Height: PreviewSize}

// Preview is a made mockup scaled down to the spec's preview size, PreviewSize on its longer side; a
// mockup already that small is returned as it is. It scales the pixels of the full mockup rather than
// rendering again. A mockup whose sides are a whole multiple of the preview's (the 2000 px flat
// mockups: 4) is averaged block by block, which is an exact box filter on its premultiplied pixels
// and costs a few milliseconds where a general resampler takes 60-90 (BenchmarkRender); any other
// size (the 1500x1875 3D mockups) is scaled as the upload variants are (variant.Scale).
func Preview(img image.Image) image.Image {
	b := img.Bounds()
	w, h := previewSpec.Size(b.Dx(), b.Dy())
	if m, ok := img.(*image.RGBA); ok && b.Min == (image.Point{}) && w < b.Dx() && b.Dx()%w == 0 && b.Dy()%h == 0 && b.Dx()/w == b.Dy()/h {
		return boxDown(m, b.Dx()/w)
	}
	return variant.Scale(img, previewSpec)
}

// boxDown averages each k x k block of src into one pixel.
func boxDown(src *image.RGBA, k int) *image.RGBA {
	w, h := src.Rect.Dx()/k, src.Rect.Dy()/k
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	n, half := uint32(k*k), uint32(k*k/2)
	sums := make([]uint32, 4*w)
	for y := range h {
		clear(sums)
		for sy := y * k; sy < (y+1)*k; sy++ {
			row := src.Pix[sy*src.Stride : sy*src.Stride+4*w*k]
			for x := range w {
				s, p := sums[4*x:4*x+4:4*x+4], row[4*x*k:4*(x+1)*k]
				for i := 0; i < len(p); i += 4 {
					s[0] += uint32(p[i])
					s[1] += uint32(p[i+1])
					s[2] += uint32(p[i+2])
					s[3] += uint32(p[i+3])
				}
			}
		}
		out := dst.Pix[y*dst.Stride : y*dst.Stride+4*w]
		for i, s := range sums {
			out[i] = uint8((s + half) / n)
		}
	}
	return dst
}

// EncodePreview writes the Preview of a made mockup (the premultiplied *image.RGBA of Render, or any
// decoded image) as lossy WebP at WebPQuality (renderer/webpenc, which needs a cgo build).
func EncodePreview(w io.Writer, img image.Image) error {
	return webpenc.Encode(w, Preview(img), WebPQuality)
}
