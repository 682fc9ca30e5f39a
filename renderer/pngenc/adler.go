package pngenc

// adlerMod is the Adler-32 modulus, the largest prime below 2^16.
const adlerMod = 65521

// adler32Combine returns the Adler-32 of the concatenation A||B given
// adler1 = Adler-32(A), adler2 = Adler-32(B) and len2 = len(B). It is zlib's
// adler32_combine: the B sum of the concatenation is the B sum of A plus
// len(B) times the A sum of A, plus the B sum of B less len(B) for B's
// starting value of 1.
func adler32Combine(adler1, adler2 uint32, len2 int64) uint32 {
	rem := uint32(len2 % adlerMod)
	sum1 := adler1 & 0xffff
	sum2 := uint32((uint64(rem) * uint64(sum1)) % adlerMod)
	sum1 += (adler2 & 0xffff) + adlerMod - 1
	sum2 += (adler1 >> 16) + (adler2 >> 16) + adlerMod - rem
	if sum1 >= adlerMod {
		sum1 -= adlerMod
	}
	if sum1 >= adlerMod {
		sum1 -= adlerMod
	}
	if sum2 >= adlerMod<<1 {
		sum2 -= adlerMod << 1
	}
	if sum2 >= adlerMod {
		sum2 -= adlerMod
	}
	return sum2<<16 | sum1
}
