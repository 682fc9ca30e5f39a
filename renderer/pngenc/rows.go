package pngenc

import (
	"encoding/binary"
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

// Alpha bytes of four RGBA pixels read as two little-endian uint64s.
const alphas = 0xff000000_ff000000

// row converts premultiplied to non-premultiplied alpha exactly as
// color.NRGBAModel (and image/png) do, so output matches image/png's. Runs of
// four pixels that are all transparent (the margins of a print file) or all
// opaque are zeroed or copied whole.
func (s rgbaRows) row(y int, buf []byte) []byte {
	b := s.m.Rect
	i := s.m.PixOffset(b.Min.X, b.Min.Y+y)
	src := s.m.Pix[i : i+4*b.Dx()]
	dst := buf[:len(src)]
	for len(src) >= 16 {
		p, q := binary.LittleEndian.Uint64(src), binary.LittleEndian.Uint64(src[8:])
		switch {
		case p|q == 0:
			*(*[16]byte)(dst) = [16]byte{}
		case p&q&alphas == alphas:
			*(*[16]byte)(dst) = *(*[16]byte)(src)
		default:
			unpremultiply(dst[:16], src[:16])
		}
		dst, src = dst[16:], src[16:]
	}
	unpremultiply(dst, src)
	return buf[:4*b.Dx()]
}

// unpremultiply converts the pixels of src into dst, one by one.
func unpremultiply(dst, src []byte) {
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
