package pngdec

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// refUnfilter is the PNG specification's reconstruction (section 9.2),
// byte by byte.
func refUnfilter(ft byte, src, prev []byte, bpp int) []byte {
	out := make([]byte, len(src))
	for i := range src {
		var a, c int
		if i >= bpp {
			a, c = int(out[i-bpp]), int(prev[i-bpp])
		}
		b := int(prev[i])
		var pred int
		switch ft {
		case ftSub:
			pred = a
		case ftUp:
			pred = b
		case ftAverage:
			pred = (a + b) / 2
		case ftPaeth:
			p := a + b - c
			pa, pb, pc := iabs(p-a), iabs(p-b), iabs(p-c)
			switch {
			case pa <= pb && pa <= pc:
				pred = a
			case pb <= pc:
				pred = b
			default:
				pred = c
			}
		}
		out[i] = src[i] + uint8(pred)
	}
	return out
}

func TestUnfilterMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, bpp := range []int{1, 2, 3, 4} {
		for _, pixels := range []int{1, 2, 3, 9, 64, 333} {
			t.Run(fmt.Sprintf("bpp%d/%dpx", bpp, pixels), func(t *testing.T) {
				n := bpp * pixels
				src, prev, dst := make([]byte, n), make([]byte, n), make([]byte, n)
				for trial := range 20 {
					for i := range src {
						src[i], prev[i] = uint8(r.IntN(256)), uint8(r.IntN(256))
					}
					for ft := range byte(5) {
						if !unfilter(ft, dst, src, prev, bpp) {
							t.Fatalf("filter type %d refused", ft)
						}
						if want := refUnfilter(ft, src, prev, bpp); !bytes.Equal(dst, want) {
							t.Fatalf("trial %d: filter type %d differs from the reference", trial, ft)
						}
					}
					if unfilter(5, dst, src, prev, bpp) {
						t.Fatal("filter type 5 accepted")
					}
				}
			})
		}
	}
}
