//go:build cgo

package webpenc

import (
	"fmt"
	"image"
	"image/draw"
	"io"

	"github.com/chai2010/webp"
)

// Available reports whether this build can encode.
const Available = true

// Encode writes img as lossy WebP at quality 0-100.
func Encode(w io.Writer, img image.Image, quality int) error {
	if err := webp.Encode(w, straight(img), &webp.Options{Quality: float32(quality)}); err != nil {
		return fmt.Errorf("webpenc: %w", err)
	}
	return nil
}

// straight returns img's pixels with straight (not premultiplied) alpha, dressed as an *image.RGBA:
// chai2010/webp hands an *image.RGBA's bytes to libwebp's WebPEncodeRGBA, which reads them as
// straight alpha, and converts every other type to premultiplied *image.RGBA pixel by pixel first —
// which would darken every semi-transparent pixel.
func straight(img image.Image) *image.RGBA {
	var n *image.NRGBA
	switch m := img.(type) {
	case *image.NRGBA:
		n = m
	case *image.RGBA:
		n = unpremultiply(m)
	default:
		n = image.NewNRGBA(img.Bounds())
		draw.Draw(n, n.Rect, img, img.Bounds().Min, draw.Src)
	}
	return &image.RGBA{Pix: n.Pix, Stride: n.Stride, Rect: n.Rect}
}

// unpremultiply copies a premultiplied image into a straight-alpha one, row by row.
func unpremultiply(m *image.RGBA) *image.NRGBA {
	b := m.Rect
	n := image.NewNRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		src := m.Pix[m.PixOffset(b.Min.X, y):][:4*b.Dx()]
		dst := n.Pix[n.PixOffset(b.Min.X, y):][:4*b.Dx()]
		for i := 0; i < len(src); i += 4 {
			a := uint32(src[i+3])
			switch a {
			case 0:
			case 255:
				copy(dst[i:i+4], src[i:i+4])
			default:
				dst[i] = uint8((uint32(src[i])*255 + a/2) / a)
				dst[i+1] = uint8((uint32(src[i+1])*255 + a/2) / a)
				dst[i+2] = uint8((uint32(src[i+2])*255 + a/2) / a)
				dst[i+3] = uint8(a)
			}
		}
	}
	return n
}
