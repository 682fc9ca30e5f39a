package pngenc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// refFilter is image/png's filter heuristic written plainly, byte by byte:
// the reference filterRow must agree with exactly.
func refFilter(cur, prev []byte) []byte {
	cands := refCandidates(cur, prev)
	cost := func(row []byte) int {
		s := 0
		for _, v := range row[1:] {
			s += abs(int(int8(v)))
		}
		return s
	}
	if prev == nil {
		// First row: filterRow considers None and Sub only (Up equals None,
		// Paeth equals Sub there); prefer None on a tie.
		if cost(cands[ftSub]) < cost(cands[ftNone]) {
			return cands[ftSub]
		}
		return cands[ftNone]
	}
	// image/png's order and strict "<": Up, Paeth, None, Sub, Average.
	best, choice := cost(cands[ftUp]), ftUp
	for _, ft := range []int{ftPaeth, ftNone, ftSub, ftAverage} {
		if c := cost(cands[ft]); c < best {
			best, choice = c, ft
		}
	}
	return cands[choice]
}

// refCandidates returns cur filtered with each filter type, byte by byte,
// type byte first; a nil prev is a row of zeros.
func refCandidates(cur, prev []byte) [nFilter][]byte {
	n := len(cur)
	if prev == nil {
		prev = make([]byte, n)
	}
	left := func(row []byte, i int) int {
		if i < bpp {
			return 0
		}
		return int(row[i-bpp])
	}
	var cands [nFilter][]byte
	for ft := range nFilter {
		out := make([]byte, 1+n)
		out[0] = byte(ft)
		for i := range n {
			a, b, c := left(cur, i), int(prev[i]), left(prev, i)
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
				pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
				switch {
				case pa <= pb && pa <= pc:
					pred = a
				case pb <= pc:
					pred = b
				default:
					pred = c
				}
			}
			out[1+i] = cur[i] - uint8(pred)
		}
		cands[ft] = out
	}
	return cands
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestFilterRowMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := map[string]func(n int) []byte{
		"random": func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = uint8(r.IntN(256))
			}
			return b
		},
		"smooth": func(n int) []byte {
			b := make([]byte, n)
			v := r.IntN(256)
			for i := range b {
				v += r.IntN(5) - 2
				b[i] = uint8(v)
			}
			return b
		},
		"flat": func(n int) []byte {
			b := make([]byte, n)
			c := uint8(r.IntN(256))
			for i := range b {
				if r.IntN(500) == 0 {
					c = uint8(r.IntN(256))
				}
				b[i] = c
			}
			return b
		},
		"extremes": func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = []byte{0, 0x7f, 0x80, 0xff}[r.IntN(4)]
			}
			return b
		},
	}
	for name, g := range gen {
		for _, pixels := range []int{1, 2, 3, 15, 16, 17, 33, 100, 1001} {
			t.Run(fmt.Sprintf("%s/%dpx", name, pixels), func(t *testing.T) {
				n := 4 * pixels
				f := newFilterBufs(n)
				for trial := range 50 {
					cur := g(n)
					var prev []byte
					if trial > 0 {
						prev = g(n)
						if trial%3 == 0 { // a row close to the previous one
							copy(cur, prev)
							cur[r.IntN(n)]++
						}
					}
					got := filterRow(f, cur, prev)
					want := refFilter(cur, prev)
					if !bytes.Equal(got, want) {
						t.Fatalf("trial %d: filter %d, reference filter %d; rows differ", trial, got[0], want[0])
					}
				}
			})
		}
	}
}

// TestFilterWithMatchesReference checks each filter type on its own, as
// rows between the sampled ones are filtered (encoder.encodeSegment).
func TestFilterWithMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, pixels := range []int{1, 2, 15, 16, 17, 1001} {
		n := 4 * pixels
		f := newFilterBufs(n)
		cur, prev := make([]byte, n), make([]byte, n)
		for trial := range 20 {
			for i := range cur {
				cur[i], prev[i] = uint8(r.IntN(256)), uint8(r.IntN(256))
			}
			want := refCandidates(cur, prev)
			for ft := range nFilter {
				if got := filterWith(f, byte(ft), cur, prev); !bytes.Equal(got, want[ft]) {
					t.Fatalf("%dpx trial %d: filter type %d differs from the reference", pixels, trial, ft)
				}
			}
		}
	}
}

func BenchmarkFilterRow(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 4 * 4500
	prev, cur := make([]byte, n), make([]byte, n)
	v := 128
	for i := range n {
		v += r.IntN(7) - 3
		prev[i] = uint8(v)
		cur[i] = uint8(v + r.IntN(5))
	}
	f := newFilterBufs(n)
	b.SetBytes(n)
	for b.Loop() {
		filterRow(f, cur, prev)
	}
}
