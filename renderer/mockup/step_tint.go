package mockup

import "context"

// tintStep multiplies the base by the product colour where the tint map says, in proportion to it:
// out = base * (1 - t + t * colour) per channel, t the tint map value. White (the default) changes
// nothing and is skipped.
func tintStep() step {
	return step{"tint", func(ctx context.Context, s *state) error {
		if s.p.tint == nil || s.color == [3]uint8{255, 255, 255} {
			return nil
		}
		lut := tintTable(s.color)
		return parallelRows(ctx, s.workers, 0, s.p.h, func(y0, y1 int) { tintRows(s, &lut, y0, y1) })
	}}
}

// tintTable holds, for every tint value t and channel c, the factor (1 - t + t*colour[c]) in 1/65536.
func tintTable(col [3]uint8) [256][3]uint32 {
	var lut [256][3]uint32
	for t := range 256 {
		for c := range 3 {
			f := 1 - float64(t)/255*(1-float64(col[c])/255)
			lut[t][c] = uint32(f*65536 + 0.5)
		}
	}
	return lut
}

func tintRows(s *state, lut *[256][3]uint32, y0, y1 int) {
	p, out := s.p, s.out
	for y := y0; y < y1; y++ {
		sp := p.tintSpans[y]
		tint := p.tint[y*p.w : (y+1)*p.w]
		row := out.Pix[y*out.Stride : y*out.Stride+4*p.w]
		for x := sp[0]; x < sp[1]; x++ {
			f := &lut[tint[x]]
			px := row[4*x : 4*x+3 : 4*x+3]
			px[0] = uint8((uint32(px[0])*f[0] + 32768) >> 16)
			px[1] = uint8((uint32(px[1])*f[1] + 32768) >> 16)
			px[2] = uint8((uint32(px[2])*f[2] + 32768) >> 16)
		}
	}
}
