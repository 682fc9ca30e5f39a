package pngenc

import (
	"image"
	"image/color"
)

// rowSource yields the rows of an image as 8-bit non-premultiplied RGBA.
// row returns row y (0 = the top of the bounds), either a slice of the
// image's own pixels or buf filled in. Calls from several goroutines at once
// must be safe, which holds for images that are only read.
type rowSource interface {
	row(y int, buf []byte) []byte
}

func newRowSource(img image.Image) rowSource {
	switch m := img.(type) {
	case *image.NRGBA:
		return nrgbaRows{m}
	case *image.RGBA:
		return rgbaRows{m}
	default:
		return genericRows{m}
	}
}

type nrgbaRows struct{ m *image.NRGBA }

func (s nrgbaRows) row(y int, _ []byte) []byte {
	b := s.m.Rect
	i := s.m.PixOffset(b.Min.X, b.Min.Y+y)
	return s.m.Pix[i : i+4*b.Dx()]
}

type rgbaRows struct{ m *image.RGBA }

// row converts premultiplied to non-premultiplied alpha exactly as
// color.NRGBAModel (and image/png) do, so output matches image/png's.
func (s rgbaRows) row(y int, buf []byte) []byte {
	b := s.m.Rect
	i := s.m.PixOffset(b.Min.X, b.Min.Y+y)
	src := s.m.Pix[i : i+4*b.Dx()]
	dst := buf[:len(src)]
	for ; len(src) >= 4; dst, src = dst[4:], src[4:] {
		d, p := (*[4]byte)(dst), (*[4]byte)(src)
		switch p[3] {
		case 0:
			*d = [4]byte{}
		case 0xff:
			*d = *p
		default:
			const m = 0x101 * 0xffff
			a := uint32(p[3]) * 0x101
			d[0] = uint8((uint32(p[0]) * m / a) >> 8)
			d[1] = uint8((uint32(p[1]) * m / a) >> 8)
			d[2] = uint8((uint32(p[2]) * m / a) >> 8)
			d[3] = p[3]
		}
	}
	return buf[:4*b.Dx()]
}

type genericRows struct{ m image.Image }

func (s genericRows) row(y int, buf []byte) []byte {
	b := s.m.Bounds()
	y += b.Min.Y
	dst := buf[:4*b.Dx()]
	for x := b.Min.X; x < b.Max.X; x++ {
		c := color.NRGBAModel.Convert(s.m.At(x, y)).(color.NRGBA)
		i := 4 * (x - b.Min.X)
		dst[i], dst[i+1], dst[i+2], dst[i+3] = c.R, c.G, c.B, c.A
	}
	return dst
}
