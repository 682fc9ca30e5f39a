package pngdec

import (
	"errors"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/zlib"
)

// ErrRowsUnsupported means Rows does not read this PNG (another bit depth or colour type than
// 8-bit RGB or RGBA, or interlaced); nothing past the header was read, so the caller decodes it whole.
var ErrRowsUnsupported = errors.New("pngdec: rows are read only from 8-bit non-interlaced RGB and RGBA images")

// Rows reads an 8-bit non-interlaced RGB or RGBA PNG row by row, top to bottom, without holding its
// pixels: begin is called with the size once the header is read, then each with every row's
// unfiltered pixels as non-premultiplied RGBA, as image.NRGBA holds them (an RGB pixel opaque, or
// clear where its tRNS chunk says; valid only during the call). It keeps two rows, so a 13500x16200
// image costs 108 KB, not 875 MB. It fails as Decode would on a damaged file, with the first error of
// begin or each, or with ErrRowsUnsupported (before begin) for any other kind of PNG.
func Rows(r io.Reader, begin func(width, height int) error, each func(y int, row []byte) error) error {
	p := &parser{r: r, crc: crc32.NewIEEE()}
	if err := p.readIHDR(); err != nil {
		return err
	}
	if (p.colorType != ctRGBA && p.colorType != ctTrueColor) || p.depth != 8 || p.interlace != 0 {
		return ErrRowsUnsupported
	}
	if err := p.readUntilIDAT(); err != nil {
		return err
	}
	bpp := 4
	if p.colorType == ctTrueColor {
		bpp = 3
	}
	rowSize := int64(bpp) * int64(p.width)
	if rowSize+1 > 1<<31 {
		return errors.New("pngdec: dimension overflow")
	}
	if err := begin(p.width, p.height); err != nil {
		return err
	}
	zr, err := zlib.NewReader(p)
	if err != nil {
		return err
	}
	defer zr.Close()
	filtered := make([]byte, 1+rowSize)
	rows := [2][]byte{make([]byte, rowSize), make([]byte, rowSize)}
	var rgba []byte // an RGB row made RGBA
	if bpp == 3 {
		rgba = make([]byte, 4*p.width)
	}
	prev := make([]byte, rowSize) // zeros above the first row
	for y := range p.height {
		if err := readPixels(zr, filtered); err != nil {
			return err
		}
		cur := rows[y&1]
		if !unfilter(filtered[0], cur, filtered[1:], prev, bpp) {
			return errors.New("pngdec: bad filter type")
		}
		out := cur
		if rgba != nil {
			expandRGB(rgba, cur, p.trns, p.transp)
			out = rgba
		}
		if err := each(y, out); err != nil {
			return err
		}
		prev = cur
	}
	return p.readAfterIDAT(zr)
}
