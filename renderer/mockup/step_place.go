package mockup

import (
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/draw"
	"math"
)

// placeStep warps the print file into the print-area quad and composites it over the output, in one pass
// over the quad's region so that no intermediate image is made. For each output pixel (centre p):
//
//  1. displacement: p' = p + d(p), d from the displacement map (the fabric's folds move the print);
//  2. inverse homography: p' maps back to a point of the print file, sampled bilinearly in premultiplied
//     RGBA (the print is first halved with a 2x2 box filter while it is at least twice the size of the
//     quad, so that neighbouring output pixels never sample more than two source pixels apart: a cheap
//     mipmap);
//  3. edge anti-aliasing: the coverage is 0.5 plus the signed distance from p' to the nearest quad edge,
//     clamped to 0..1, so the print's outline is smooth and follows the displacement;
//  4. shading: the colour is multiplied by the shading map (alpha untouched), then everything by the
//     coverage and the mask;
//  5. source-over onto the tinted base.
func placeStep() step {
	return step{"place", func(ctx context.Context, s *state) error {
		src := premultiplied(s.print)
		src = prefilter(src, s.p.quad, s.workers)
		pl, err := newPlacement(s.p, src)
		if err != nil {
			return fmt.Errorf("%w: template %s: quad: %v", ErrInvalidTemplate, s.tpl.ID, err)
		}
		r := s.p.region
		return parallelRows(ctx, s.workers, r.Min.Y, r.Max.Y, func(y0, y1 int) {
			for y := y0; y < y1; y++ {
				pl.row(s.out, y)
			}
		})
	}}
}

// premultiplied returns img as premultiplied RGBA with its origin at (0, 0), without copying when it
// already is one.
func premultiplied(img image.Image) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok && m.Rect.Min == (image.Point{}) {
		return m
	}
	b := img.Bounds()
	m := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(m, m.Rect, img, b.Min, draw.Src)
	return m
}

// prefilter halves src with a 2x2 box filter while every side of it is at least twice as long as the
// quad side it maps to, on workers goroutines.
func prefilter(src *image.RGBA, q [4]Point, workers int) *image.RGBA {
	dist := func(a, b Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }
	for {
		w, h := float64(src.Rect.Dx()), float64(src.Rect.Dy())
		ratio := math.Min(math.Min(w/dist(q[0], q[1]), w/dist(q[3], q[2])), math.Min(h/dist(q[0], q[3]), h/dist(q[1], q[2])))
		if ratio < 2 || w < 2 || h < 2 {
			return src
		}
		src = halve(src, workers)
	}
}

// halve averages 2x2 blocks (the last row or column of an odd size averages with itself), bands of rows
// on workers goroutines.
func halve(src *image.RGBA, workers int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	w, h := (sw+1)/2, (sh+1)/2
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	parallelRows(context.Background(), workers, 0, h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			r0 := src.Pix[2*y*src.Stride:]
			r1 := src.Pix[min(2*y+1, sh-1)*src.Stride:]
			halveRow(dst.Pix[y*dst.Stride:], r0, r1, sw)
		}
	})
	return dst
}

// byteLanes keeps every other byte of a uint64: four 16-bit lanes, wide enough for a sum of four bytes.
const byteLanes = 0x00ff00ff00ff00ff

// halveRow writes to d the (sw+1)/2 averages of the 2x2 blocks of rows r0 and r1, sw pixels each:
// per channel (p + q + r + s + 2) >> 2. The two pixels of a block row are read as one uint64 whose
// even and odd bytes are summed in 16-bit lanes, so a block costs a dozen integer operations instead of
// sixteen byte loads.
func halveRow(d, r0, r1 []byte, sw int) {
	pairs := sw / 2
	for x := range pairs {
		d32 := (*[4]byte)(d[4*x:])
		*d32 = average(binary.LittleEndian.Uint64(r0[8*x:]), binary.LittleEndian.Uint64(r1[8*x:]))
	}
	if sw%2 == 1 { // the last column with itself
		a := uint64(binary.LittleEndian.Uint32(r0[8*pairs:]))
		b := uint64(binary.LittleEndian.Uint32(r1[8*pairs:]))
		*(*[4]byte)(d[4*pairs:]) = average(a|a<<32, b|b<<32)
	}
}

// average is the rounded mean of the four RGBA pixels in a (two, left in the low half) and b.
func average(a, b uint64) [4]byte {
	even := a&byteLanes + b&byteLanes                           // lanes R, B of the left pixel, R, B of the right
	odd := (a>>8)&byteLanes + (b>>8)&byteLanes                  // lanes G, A, G, A
	even = ((even + even>>32) + 0x0002_0002) >> 2 & 0x00ff_00ff // R in byte 0, B in byte 2
	odd = ((odd + odd>>32) + 0x0002_0002) >> 2 & 0x00ff_00ff
	var px [4]byte
	binary.LittleEndian.PutUint32(px[:], uint32(even|odd<<8))
	return px
}

// placement is the per-render set-up of placeStep: the inverse transform and the quad's edge lines.
type placement struct {
	p   *prepared
	src *image.RGBA
	inv homography
	// edges: inside-positive distance of (x, y) from edge k is ex[k]*x + ey[k]*y + ec[k].
	ex, ey, ec [4]float64
	// reach is how far (output pixels) a displaced point can be from its pixel.
	reach float64
}

func newPlacement(p *prepared, src *image.RGBA) (*placement, error) {
	h := rectToQuad(float64(src.Rect.Dx()), float64(src.Rect.Dy()), p.quad)
	inv, err := h.inverse()
	if err != nil {
		return nil, err
	}
	pl := &placement{p: p, src: src, inv: inv, reach: p.maxDisp * math.Sqrt2}
	area := 0.0
	for k := range 4 {
		a, b := p.quad[k], p.quad[(k+1)%4]
		area += a.X*b.Y - b.X*a.Y
	}
	sign := 1.0
	if area < 0 {
		sign = -1
	}
	for k := range 4 {
		a, b := p.quad[k], p.quad[(k+1)%4]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		// distance = sign * ((y - a.Y)*(b.X - a.X) - (x - a.X)*(b.Y - a.Y)) / l
		pl.ex[k] = -sign * (b.Y - a.Y) / l
		pl.ey[k] = sign * (b.X - a.X) / l
		pl.ec[k] = sign * (a.X*(b.Y-a.Y) - a.Y*(b.X-a.X)) / l
	}
	return pl, nil
}

// span is the part [x0, x1) of row y that the quad, grown by half a pixel and the displacement reach, can
// touch.
func (pl *placement) span(y int) (int, int) {
	r := pl.p.region
	lo, hi := float64(r.Min.X), float64(r.Max.X)
	cy := float64(y) + 0.5
	thr := -0.5 - pl.reach
	for k := range 4 {
		// ex*cx + c >= thr with cx = x + 0.5
		c := pl.ey[k]*cy + pl.ec[k]
		switch {
		case pl.ex[k] > 1e-12:
			lo = math.Max(lo, math.Ceil((thr-c)/pl.ex[k]-0.5))
		case pl.ex[k] < -1e-12:
			hi = math.Min(hi, math.Floor((thr-c)/pl.ex[k]-0.5)+1)
		case c < thr:
			return 0, 0
		}
	}
	if hi <= lo {
		return 0, 0
	}
	return int(lo), int(hi)
}

// row composites the print over row y of out.
func (pl *placement) row(out *image.RGBA, y int) {
	x0, x1 := pl.span(y)
	if x0 >= x1 {
		return
	}
	p, src, m := pl.p, pl.src, pl.inv
	rw := p.region.Dx()
	ri := (y-p.region.Min.Y)*rw - p.region.Min.X // region index of (x, y) is ri + x
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	maxU, maxV := float64(sw-1), float64(sh-1)
	spix, stride := src.Pix, src.Stride
	opix := out.Pix[y*out.Stride:]
	cy := float64(y) + 0.5
	cx := float64(x0) + 0.5
	// homogeneous source coordinates and edge distances at (cx, cy), stepped along x
	X := m[0]*cx + m[1]*cy + m[2]
	Y := m[3]*cx + m[4]*cy + m[5]
	W := m[6]*cx + m[7]*cy + m[8]
	var e [4]float64
	for k := range 4 {
		e[k] = pl.ex[k]*cx + pl.ey[k]*cy + pl.ec[k]
	}
	const inv = 1.0 / dispUnit
	for x := x0; x < x1; x, X, Y, W = x+1, X+m[0], Y+m[3], W+m[6] {
		e0, e1, e2, e3 := e[0], e[1], e[2], e[3]
		e[0], e[1], e[2], e[3] = e0+pl.ex[0], e1+pl.ex[1], e2+pl.ex[2], e3+pl.ex[3]
		mk := uint32(255)
		if p.mask != nil {
			mk = uint32(p.mask[ri+x])
			if mk == 0 {
				continue
			}
		}
		xx, yy, ww := X, Y, W
		if p.disp != nil {
			dx, dy := float64(p.disp[2*(ri+x)])*inv, float64(p.disp[2*(ri+x)+1])*inv
			xx += m[0]*dx + m[1]*dy
			yy += m[3]*dx + m[4]*dy
			ww += m[6]*dx + m[7]*dy
			e0 += pl.ex[0]*dx + pl.ey[0]*dy
			e1 += pl.ex[1]*dx + pl.ey[1]*dy
			e2 += pl.ex[2]*dx + pl.ey[2]*dy
			e3 += pl.ex[3]*dx + pl.ey[3]*dy
		}
		cov := min(e0, e1, e2, e3) + 0.5
		if cov <= 0 {
			continue
		}
		k := mk * 255
		if cov < 1 {
			k = uint32(cov*float64(mk)*255 + 0.5)
		}
		if ww <= 0 { // beyond the horizon of a steep perspective: not a point of the print
			continue
		}
		// bilinear sample at the texel-centred source point
		iw := 1 / ww
		u := min(max(xx*iw-0.5, 0), maxU)
		v := min(max(yy*iw-0.5, 0), maxV)
		iu, iv := int(u), int(v)
		fu, fv := uint32((u-float64(iu))*256), uint32((v-float64(iv))*256)
		du, dv := 4, stride
		if iu == sw-1 {
			du = 0
		}
		if iv == sh-1 {
			dv = 0
		}
		o := iv*stride + 4*iu
		t00, t10, t01, t11 := spix[o:o+4:o+4], spix[o+du:o+du+4:o+du+4], spix[o+dv:o+dv+4:o+dv+4], spix[o+dv+du:o+dv+du+4:o+dv+du+4]
		w00, w10, w01, w11 := (256-fu)*(256-fv), fu*(256-fv), (256-fu)*fv, fu*fv
		sa := (uint32(t00[3])*w00 + uint32(t10[3])*w10 + uint32(t01[3])*w01 + uint32(t11[3])*w11 + 32768) >> 16
		if sa == 0 {
			continue
		}
		sr := (uint32(t00[0])*w00 + uint32(t10[0])*w10 + uint32(t01[0])*w01 + uint32(t11[0])*w11 + 32768) >> 16
		sg := (uint32(t00[1])*w00 + uint32(t10[1])*w10 + uint32(t01[1])*w01 + uint32(t11[1])*w11 + 32768) >> 16
		sb := (uint32(t00[2])*w00 + uint32(t10[2])*w10 + uint32(t01[2])*w01 + uint32(t11[2])*w11 + 32768) >> 16
		// k is the coverage times the mask in 1/65025; the colour also takes the shading
		fc, fa := k, k
		if p.shade != nil {
			fc = (k*uint32(p.shade[ri+x]) + 127) / 255
		}
		sr = (sr*fc + 32512) / 65025
		sg = (sg*fc + 32512) / 65025
		sb = (sb*fc + 32512) / 65025
		sa = (sa*fa + 32512) / 65025
		d := opix[4*x : 4*x+4 : 4*x+4]
		ia := 255 - sa
		d[0] = uint8(sr + (uint32(d[0])*ia+127)/255)
		d[1] = uint8(sg + (uint32(d[1])*ia+127)/255)
		d[2] = uint8(sb + (uint32(d[2])*ia+127)/255)
		d[3] = uint8(sa + (uint32(d[3])*ia+127)/255)
	}
}
