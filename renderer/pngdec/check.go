package pngdec

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"

	"github.com/klauspost/compress/zlib"
)

// Check reads a whole PNG file and returns the error Decode would return, nil when Decode would
// decode it, without decoding it: it keeps one filtered row at a time, so a 13500x16200 image
// costs a row (54 KB), not its pixels (875 MB). It checks everything that can make a decoding fail:
// the signature, the chunks' order, lengths and CRCs, the header's bit depth and colour type, the
// palette and transparency, every row's filter type (interlaced passes included), the amount of
// pixel data, the zlib checksum, and the chunks up to IEND. Filtering itself cannot fail, so the
// rows are not unfiltered.
func Check(r io.Reader) error {
	p := &parser{r: r, crc: crc32.NewIEEE()}
	if err := p.readIHDR(); err != nil {
		return err
	}
	channels, ok := map[int]int{ctGray: 1, ctTrueColor: 3, ctPaletted: 1, ctGrayAlpha: 2, ctRGBA: 4}[p.colorType]
	depths := map[int][]int{ctGray: {1, 2, 4, 8, 16}, ctTrueColor: {8, 16}, ctPaletted: {1, 2, 4, 8},
		ctGrayAlpha: {8, 16}, ctRGBA: {8, 16}}[p.colorType]
	if !ok || !slices.Contains(depths, p.depth) {
		return fmt.Errorf("pngdec: bit depth %d, colour type %d", p.depth, p.colorType)
	}
	if err := p.readUntilIDAT(); err != nil {
		return err
	}
	zr, err := zlib.NewReader(p)
	if err != nil {
		return err
	}
	defer zr.Close()
	bitsPerPixel := channels * p.depth
	// The passes' sizes: the whole image, or Adam7's seven sub-images (empty ones have no rows).
	type pass struct{ w, h int }
	passes := []pass{{p.width, p.height}}
	if p.interlace == 1 {
		passes = passes[:0]
		for _, a := range adam7 {
			passes = append(passes, pass{(p.width - a.x + a.dx - 1) / a.dx, (p.height - a.y + a.dy - 1) / a.dy})
		}
	}
	var row []byte
	for _, ps := range passes {
		if ps.w <= 0 || ps.h <= 0 {
			continue
		}
		rowBytes := 1 + (int64(ps.w)*int64(bitsPerPixel)+7)/8
		if rowBytes > 1<<31 {
			return errors.New("pngdec: dimension overflow")
		}
		if cap(row) < int(rowBytes) {
			row = make([]byte, rowBytes)
		}
		row = row[:rowBytes]
		for range ps.h {
			if err := readPixels(zr, row); err != nil {
				return err
			}
			if row[0] > 4 {
				return errors.New("pngdec: bad filter type")
			}
		}
	}
	return p.readAfterIDAT(zr)
}

// adam7 are the seven passes of an interlaced image: first pixel and step in each direction.
var adam7 = [7]struct{ x, y, dx, dy int }{
	{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2},
}
