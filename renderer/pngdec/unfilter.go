package pngdec

import "encoding/binary"

// PNG filter types (PNG specification, section 9.2).
const (
	ftNone = iota
	ftSub
	ftUp
	ftAverage
	ftPaeth
)

// unfilter reverses the filter of one row: dst = src + predictor(dst to the
// left, prev above), bpp bytes per pixel. prev is the previous row already
// unfiltered (zeros for the first row); dst must not overlap src or prev.
// It reports false for an unknown filter type.
func unfilter(ft byte, dst, src, prev []byte, bpp int) bool {
	n := len(dst)
	src, prev = src[:n], prev[:n]
	switch ft {
	case ftNone:
		copy(dst, src)
	case ftSub:
		copy(dst[:bpp], src[:bpp])
		if bpp == 4 { // a pixel at a time, its four bytes in one word
			left := uint64(binary.LittleEndian.Uint32(dst))
			for i := 4; i+4 <= n; i += 4 {
				left = add8(uint64(binary.LittleEndian.Uint32(src[i:])), left) & 0xffffffff
				binary.LittleEndian.PutUint32(dst[i:], uint32(left))
			}
			break
		}
		for i := bpp; i < n; i++ {
			dst[i] = src[i] + dst[i-bpp]
		}
	case ftUp:
		i := 0
		for ; i+8 <= n; i += 8 {
			binary.LittleEndian.PutUint64(dst[i:], add8(binary.LittleEndian.Uint64(src[i:]), binary.LittleEndian.Uint64(prev[i:])))
		}
		for ; i < n; i++ {
			dst[i] = src[i] + prev[i]
		}
	case ftAverage:
		for i := range bpp {
			dst[i] = src[i] + prev[i]/2
		}
		for i := bpp; i < n; i++ {
			dst[i] = src[i] + uint8((int(dst[i-bpp])+int(prev[i]))/2)
		}
	case ftPaeth:
		for i := range bpp {
			dst[i] = src[i] + prev[i] // a = c = 0: the predictor is b
		}
		for i := bpp; i < n; i++ {
			dst[i] = src[i] + paeth(dst[i-bpp], prev[i], prev[i-bpp])
		}
	default:
		return false
	}
	return true
}

const hi8 = 0x8080808080808080

// add8 adds the bytes of x and y, each lane modulo 256.
func add8(x, y uint64) uint64 {
	return ((x &^ hi8) + (y &^ hi8)) ^ ((x ^ y) & hi8)
}

// paeth is the Paeth predictor: whichever of left a, up b and upper-left c
// is closest to a+b-c, ties in that order. It has no branches: which one wins
// is data, and mispredicted branches made it several times slower.
func paeth(a, b, c uint8) uint8 {
	ia, ib, ic := int(a), int(b), int(c)
	pa, pb := ib-ic, ia-ic // |p-a| and |p-b| before abs, with p = a+b-c
	pc := iabs(pa + pb)
	pa, pb = iabs(pa), iabs(pb)
	pred := ib ^ ((ib ^ ic) & ((pc - pb) >> 63))                // pb <= pc ? b : c
	pred = ia ^ ((ia ^ pred) & (((pb - pa) | (pc - pa)) >> 63)) // pa <= pb && pa <= pc ? a : pred
	return uint8(pred)
}

func iabs(x int) int {
	m := x >> 63
	return (x ^ m) - m
}
