package raster

import (
	"cmp"
	"context"
	"image"
	"image/color"
	"math"
	"runtime"
	"slices"
	"sync"
	"unsafe"
)

// kernel is a separable resampling filter: at(x) for |x| < support, zero beyond.
type kernel struct {
	name    string
	support float64
	at      func(x float64) float64
}

// catmullRom is the bicubic filter with B=0, C=0.5: sharp, no ringing to speak of, and cheaper than
// Lanczos-3 (4 instead of 6 taps per axis at scale 1). See BenchmarkResampleKernels for the measurement
// behind the choice.
var catmullRom = kernel{"catmull-rom", 2, func(x float64) float64 {
	x = math.Abs(x)
	if x < 1 {
		return (1.5*x-2.5)*x*x + 1
	}
	if x < 2 {
		return ((-0.5*x+2.5)*x-4)*x + 2
	}
	return 0
}}

// lanczos3 is kept for comparison in benchmarks and tests.
var lanczos3 = kernel{"lanczos3", 3, func(x float64) float64 {
	x = math.Abs(x)
	if x == 0 {
		return 1
	}
	if x < 3 {
		px := math.Pi * x
		return 3 * math.Sin(px) * math.Sin(px/3) / (px * px)
	}
	return 0
}}

// axisWeights holds, for each destination index d in [d0, d0+len(start)), the source taps of one axis.
type axisWeights struct {
	d0    int
	n     int       // stride of w: the most taps any index has
	start []int     // first source index (relative to the source bounds)
	count []int     // taps used
	w     []float32 // n weights per destination index, normalised to sum 1
	cov   []float32 // how much of the destination pixel the placed box covers (anti-aliased box edges)
}

// makeWeights computes the taps for a source of srcN pixels placed at [pos, pos+size) in destination
// pixels, for destination indices [d0, d1). Taps past the source edge are clamped to it (the edge pixel repeats).
func makeWeights(k kernel, srcN int, pos, size float64, d0, d1 int) axisWeights {
	scale := float64(srcN) / size // source pixels per destination pixel
	fscale := math.Max(scale, 1)  // widen the kernel when downscaling
	// A box far smaller than a pixel would widen the kernel without bound; past the source's own width every
	// pixel is already in the average, so cap it there.
	fscale = math.Min(fscale, float64(srcN)/k.support+1)
	support := k.support * fscale
	n := int(math.Ceil(2*support)) + 2
	aw := axisWeights{d0: d0, n: n, start: make([]int, d1-d0), count: make([]int, d1-d0),
		w: make([]float32, (d1-d0)*n), cov: make([]float32, d1-d0)}
	tmp := make([]float64, n)
	for d := d0; d < d1; d++ {
		i := d - d0
		lo := math.Max(float64(d), pos)
		hi := math.Min(float64(d+1), pos+size)
		aw.cov[i] = float32(math.Max(0, math.Min(1, hi-lo)))
		center := (float64(d) + 0.5 - pos) * scale // continuous source coordinate
		first := int(math.Ceil(center - support - 0.5))
		last := int(math.Floor(center + support - 0.5))
		clear(tmp)
		base := min(max(first, 0), srcN-1)
		top := base
		sum := 0.0
		for j := first; j <= last; j++ {
			wt := k.at((float64(j) + 0.5 - center) / fscale)
			if wt == 0 {
				continue
			}
			c := min(max(j, 0), srcN-1)
			if c-base >= n { // cannot happen with n >= 2*support+2; guard the slice anyway
				continue
			}
			tmp[c-base] += wt
			top = max(top, c)
			sum += wt
		}
		// trim zero weights from both ends
		s, e := 0, top-base
		for s < e && tmp[s] == 0 {
			s++
		}
		for e > s && tmp[e] == 0 {
			e--
		}
		aw.start[i] = base + s
		aw.count[i] = e - s + 1
		if sum == 0 {
			sum = 1
			tmp[s] = 1
		}
		for j := s; j <= e; j++ {
			aw.w[i*n+j-s] = float32(tmp[j] / sum)
		}
	}
	return aw
}

// span returns the source range [lo, hi) all taps touch.
func (aw *axisWeights) span() (lo, hi int) {
	lo, hi = math.MaxInt, 0
	for i := range aw.start {
		lo = min(lo, aw.start[i])
		hi = max(hi, aw.start[i]+aw.count[i])
	}
	return lo, hi
}

// fbox is a placed box in destination pixels.
type fbox struct{ x, y, w, h float64 }

// resampleOver scales src into the box and composites it over dst (premultiplied "over"), clipped to dst's
// bounds. It streams: each worker keeps only a ring of horizontally resampled rows as tall as the vertical
// kernel, so no scaled copy of the image is ever held. Rows are split into bands shared out to workers.
func resampleOver(ctx context.Context, dst *image.RGBA, src image.Image, box fbox, k kernel, workers int) error {
	return resampleOverRows(ctx, dst, src, nil, box, k, workers)
}

// streamBand is the band height, in output rows, while the source is still decoding: bands are taken top
// down, so small ones keep every worker just behind the decoder instead of waiting for rows far below it.
// 128 rows keeps the ring's warm-up at the start of each band (a kernel's height of rows) near 4%.
const streamBand = 128

// resampleOverRows is resampleOver for a source still being decoded top down: ready(n) blocks until the
// source's first n rows (from the top of its bounds) are final, or returns the decoding's error. A nil
// ready means the whole source is there.
func resampleOverRows(ctx context.Context, dst *image.RGBA, src image.Image, ready func(n int) error, box fbox, k kernel, workers int) error {
	sb := src.Bounds()
	return resampleRows(ctx, dst, rowSource{
		width: sb.Dx(), height: sb.Dy(), ready: ready,
		fetcher: func(xlo, xhi int) func(int, []float32) { return rowFetcher(src, xlo, xhi) },
	}, box, k, workers)
}

// rowSource is a source image as the resampler reads it: top down, a row at a time.
type rowSource struct {
	width, height int
	// fetcher returns the function filling out with row y, columns [xlo, xhi), as premultiplied RGBA
	// float32 in 0..255 (rowFetcher).
	fetcher func(xlo, xhi int) func(y int, out []float32)
	// ready(n) blocks until the first n rows can be fetched, or returns why they never will; nil: all can.
	ready func(n int) error
	// release(n) tells that no row above row n will be fetched again; nil: nobody needs to know.
	release func(n int)
}

// resampleRows is resampleOver from a rowSource. Bands of rows are taken top down; once every band up to
// one is drawn, the source hears (release) that the rows above what the bands left need are done with.
func resampleRows(ctx context.Context, dst *image.RGBA, src rowSource, box fbox, k kernel, workers int) error {
	if src.width <= 0 || src.height <= 0 || box.w <= 0 || box.h <= 0 {
		return nil
	}
	dx0, dx1, dy0, dy1 := clip(dst.Bounds(), box)
	if dx0 >= dx1 || dy0 >= dy1 {
		return nil
	}
	hw := makeWeights(k, src.width, box.x, box.w, dx0, dx1)
	vw := makeWeights(k, src.height, box.y, box.h, dy0, dy1)
	xlo, xhi := hw.span()
	fetch := src.fetcher(xlo, xhi)

	workers = workerCount(workers)
	rows := dy1 - dy0
	band := bandRows(rows, workers, src.ready != nil)
	bands := (rows + band - 1) / band
	// lowest[b] is the first source row bands b... still read: once the bands before b are drawn, the
	// rows above it are done with.
	var lowest []int
	if src.release != nil {
		lowest = make([]int, bands+1)
		lowest[bands] = src.height
		for b := bands - 1; b >= 0; b-- {
			lowest[b] = lowest[b+1]
			for i := b * band; i < min((b+1)*band, rows); i++ {
				lowest[b] = min(lowest[b], vw.start[i])
			}
		}
		// The rows above the first band's are never read (the box may start far above the canvas).
		src.release(lowest[0])
	}
	var (
		next  int
		done  = make([]bool, bands)
		drawn int // bands 0..drawn-1 are drawn
		mu    sync.Mutex
		wg    sync.WaitGroup
		errv  error
	)
	fail := func(err error) {
		mu.Lock()
		errv = cmp.Or(errv, err)
		mu.Unlock()
	}
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= rows || errv != nil {
			return 0, false
		}
		b := next
		next += band
		return b, true
	}
	finish := func(b int) {
		if src.release == nil {
			return
		}
		mu.Lock()
		done[b/band] = true
		for drawn < bands && done[drawn] {
			drawn++
		}
		low := lowest[drawn]
		mu.Unlock()
		src.release(low)
	}
	for range min(workers, bands) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newResampleWorker(&hw, &vw, xlo, xhi, fetch)
			have := 0 // source rows known to be final
			if src.ready == nil {
				have = src.height
			}
			for {
				b, ok := take()
				if !ok {
					return
				}
				if err := ctx.Err(); err != nil {
					fail(err)
					return
				}
				for i := b; i < min(b+band, rows); i++ {
					if need := vw.start[i] + vw.count[i]; need > have {
						if err := src.ready(need); err != nil {
							fail(err)
							return
						}
						have = need
					}
					r.row(dst, i, dx0, dy0+i)
				}
				finish(b)
			}
		}()
	}
	wg.Wait()
	return errv
}

// clip is the destination pixels the placed box touches, within db: columns [dx0, dx1), rows [dy0, dy1).
func clip(db image.Rectangle, box fbox) (dx0, dx1, dy0, dy1 int) {
	dx0, dx1 = max(int(math.Floor(box.x)), db.Min.X), min(int(math.Ceil(box.x+box.w)), db.Max.X)
	dy0, dy1 = max(int(math.Floor(box.y)), db.Min.Y), min(int(math.Ceil(box.y+box.h)), db.Max.Y)
	return dx0, dx1, dy0, dy1
}

// workerCount is the resampler's goroutines: workers, or one per core when it is not positive.
func workerCount(workers int) int {
	if workers <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return workers
}

// bandRows is how many output rows a worker takes at a time: a few bands per worker, and no more than
// streamBand while the source is still arriving.
func bandRows(rows, workers int, streaming bool) int {
	band := max(32, (rows+workers*4-1)/(workers*4))
	if streaming {
		band = min(band, streamBand)
	}
	return band
}

type resampleWorker struct {
	hw, vw   *axisWeights
	xlo      int
	fetch    func(y int, out []float32)
	srcRow   []float32
	ring     [][]float32
	ringY    []int
	ringZero []bool      // the ring's row is all zero: a transparent source row
	rows     [][]float32 // the rows of the current vertical taps
	acc      []float32
	rowWidth int
}

func newResampleWorker(hw, vw *axisWeights, xlo, xhi int, fetch func(int, []float32)) *resampleWorker {
	w := len(hw.start)
	r := &resampleWorker{hw: hw, vw: vw, xlo: xlo, fetch: fetch, srcRow: make([]float32, (xhi-xlo)*4),
		ring: make([][]float32, vw.n), ringY: make([]int, vw.n), ringZero: make([]bool, vw.n), rows: make([][]float32, vw.n),
		acc: make([]float32, w*4), rowWidth: w}
	for i := range r.ring {
		r.ring[i] = make([]float32, w*4)
		r.ringY[i] = -1
	}
	return r
}

// px4 views a float32 slice as RGBA pixels; the hot loops then bounds-check once per pixel, not per channel.
func px4(f []float32) [][4]float32 {
	if len(f) < 4 {
		return nil
	}
	return unsafe.Slice((*[4]float32)(unsafe.Pointer(&f[0])), len(f)/4)
}

// hrow returns source row y resampled horizontally, from the ring or computed into it, and whether it
// is all zero (a transparent source row, such as the margins of most artworks).
func (r *resampleWorker) hrow(y int) ([]float32, bool) {
	slot := y % len(r.ring)
	out := r.ring[slot]
	if r.ringY[slot] == y {
		return out, r.ringZero[slot]
	}
	r.fetch(y, r.srcRow)
	r.ringY[slot] = y
	if r.ringZero[slot] = !slices.ContainsFunc(r.srcRow, func(v float32) bool { return v != 0 }); r.ringZero[slot] {
		clear(out)
		return out, true
	}
	hw := r.hw
	src, dst := px4(r.srcRow), px4(out)
	n := hw.n
	for c := range dst[:r.rowWidth] {
		ws := hw.w[c*n : c*n+hw.count[c]]
		px := src[hw.start[c]-r.xlo:]
		px = px[:len(ws)]
		var s0, s1, s2, s3 float32
		for j, wt := range ws {
			p := &px[j]
			s0 += wt * p[0]
			s1 += wt * p[1]
			s2 += wt * p[2]
			s3 += wt * p[3]
		}
		dst[c] = [4]float32{s0, s1, s2, s3}
	}
	return out, false
}

// row computes destination row i of the clipped box (canvas row y) and composites it at columns dx0...;
// a row whose source rows are all transparent leaves dst as it is.
func (r *resampleWorker) row(dst *image.RGBA, i, dx0, y int) {
	vw := r.vw
	st, cnt := vw.start[i], vw.count[i]
	ws := vw.w[i*vw.n : i*vw.n+cnt]
	rows := r.rows[:cnt]
	transparent := true
	for j := range rows {
		var zero bool
		rows[j], zero = r.hrow(st + j)
		transparent = transparent && zero
	}
	if transparent {
		return
	}
	acc := r.acc
	// All taps in one pass for the common counts (one store per value); two taps per pass beyond.
	switch cnt {
	case 1:
		w0, h0 := ws[0], rows[0][:len(acc)]
		for x, v := range h0 {
			acc[x] = w0 * v
		}
	case 3:
		w0, w1, w2 := ws[0], ws[1], ws[2]
		h0, h1, h2 := rows[0][:len(acc)], rows[1][:len(acc)], rows[2][:len(acc)]
		for x := range acc {
			acc[x] = w0*h0[x] + w1*h1[x] + w2*h2[x]
		}
	case 4:
		w0, w1, w2, w3 := ws[0], ws[1], ws[2], ws[3]
		h0, h1, h2, h3 := rows[0][:len(acc)], rows[1][:len(acc)], rows[2][:len(acc)], rows[3][:len(acc)]
		for x := range acc {
			acc[x] = w0*h0[x] + w1*h1[x] + w2*h2[x] + w3*h3[x]
		}
	case 5:
		w0, w1, w2, w3, w4 := ws[0], ws[1], ws[2], ws[3], ws[4]
		h0, h1, h2, h3, h4 := rows[0][:len(acc)], rows[1][:len(acc)], rows[2][:len(acc)], rows[3][:len(acc)], rows[4][:len(acc)]
		for x := range acc {
			acc[x] = w0*h0[x] + w1*h1[x] + w2*h2[x] + w3*h3[x] + w4*h4[x]
		}
	default:
		j := 0
		if cnt%2 == 1 {
			w0, h0 := ws[0], rows[0][:len(acc)]
			for x, v := range h0 {
				acc[x] = w0 * v
			}
			j = 1
		} else {
			clear(acc)
		}
		for ; j+1 < cnt; j += 2 {
			w0, w1 := ws[j], ws[j+1]
			h0, h1 := rows[j][:len(acc)], rows[j+1][:len(acc)]
			for x := range acc {
				acc[x] += w0*h0[x] + w1*h1[x]
			}
		}
	}
	covY := vw.cov[i]
	off := dst.PixOffset(dx0, y)
	d := dst.Pix[off : off+len(acc)]
	covX := r.hw.cov[:r.rowWidth]
	for c, p := range px4(acc)[:len(covX)] {
		a := p[3]
		if a <= 0 {
			continue
		}
		q := (*[4]uint8)(d[c*4 : c*4+4])
		cov := covX[c] * covY
		if a >= 254.5 && cov == 1 {
			q[0], q[1], q[2], q[3] = clampU8(p[0], 255), clampU8(p[1], 255), clampU8(p[2], 255), 255
			continue
		}
		a = min(a, 255) * cov
		cr := min(max(p[0], 0)*cov, a)
		cg := min(max(p[1], 0)*cov, a)
		cb := min(max(p[2], 0)*cov, a)
		inv := 1 - a/255
		q[0] = uint8(cr + float32(q[0])*inv + 0.5)
		q[1] = uint8(cg + float32(q[1])*inv + 0.5)
		q[2] = uint8(cb + float32(q[2])*inv + 0.5)
		q[3] = uint8(a + float32(q[3])*inv + 0.5)
	}
}

// clampU8 rounds v into 0..hi.
func clampU8(v, hi float32) uint8 {
	return uint8(min(max(v, 0), hi) + 0.5)
}

// premultiply fills out with the non-premultiplied RGBA pixels pix (image.NRGBA's bytes) premultiplied, as
// float32 in 0..255.
func premultiply(pix []byte, out []float32) {
	for x := 0; x < len(pix); x += 4 {
		p := pix[x : x+4 : x+4]
		o := out[x : x+4 : x+4]
		switch a := p[3]; a {
		case 255:
			o[0], o[1], o[2], o[3] = float32(p[0]), float32(p[1]), float32(p[2]), 255
		case 0:
			o[0], o[1], o[2], o[3] = 0, 0, 0, 0
		default:
			f := float32(a) / 255
			o[0], o[1], o[2], o[3] = float32(p[0])*f, float32(p[1])*f, float32(p[2])*f, float32(a)
		}
	}
}

// rowFetcher returns a function filling out with source row y (relative to the bounds), columns [xlo, xhi),
// as premultiplied RGBA float32 in 0..255.
func rowFetcher(src image.Image, xlo, xhi int) func(y int, out []float32) {
	b := src.Bounds()
	switch m := src.(type) {
	case *image.NRGBA:
		return func(y int, out []float32) {
			i := m.PixOffset(b.Min.X+xlo, b.Min.Y+y)
			premultiply(m.Pix[i:i+(xhi-xlo)*4], out)
		}
	case *image.RGBA:
		return func(y int, out []float32) {
			i := m.PixOffset(b.Min.X+xlo, b.Min.Y+y)
			for x, v := range m.Pix[i : i+(xhi-xlo)*4] {
				out[x] = float32(v)
			}
		}
	case *image.YCbCr:
		return func(y int, out []float32) {
			for x := xlo; x < xhi; x++ {
				yi := m.YOffset(b.Min.X+x, b.Min.Y+y)
				ci := m.COffset(b.Min.X+x, b.Min.Y+y)
				r, g, bl := color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
				o := out[(x-xlo)*4 : (x-xlo)*4+4 : (x-xlo)*4+4]
				o[0], o[1], o[2], o[3] = float32(r), float32(g), float32(bl), 255
			}
		}
	case *image.Gray:
		return func(y int, out []float32) {
			i := m.PixOffset(b.Min.X+xlo, b.Min.Y+y)
			for x, v := range m.Pix[i : i+(xhi-xlo)] {
				f := float32(v)
				o := out[x*4 : x*4+4 : x*4+4]
				o[0], o[1], o[2], o[3] = f, f, f, 255
			}
		}
	case *image.NRGBA64: // 16-bit PNGs
		return func(y int, out []float32) {
			i := m.PixOffset(b.Min.X+xlo, b.Min.Y+y)
			pix := m.Pix[i : i+(xhi-xlo)*8]
			for x := 0; x+8 <= len(pix); x += 8 {
				p := pix[x : x+8 : x+8]
				a := float32(uint16(p[6])<<8|uint16(p[7])) / 257
				f := a / 255
				o := out[x/2 : x/2+4 : x/2+4]
				o[0] = float32(uint16(p[0])<<8|uint16(p[1])) / 257 * f
				o[1] = float32(uint16(p[2])<<8|uint16(p[3])) / 257 * f
				o[2] = float32(uint16(p[4])<<8|uint16(p[5])) / 257 * f
				o[3] = a
			}
		}
	case *image.Paletted: // palette PNGs: flat artwork
		pal := make([][4]float32, len(m.Palette))
		for i, c := range m.Palette {
			r, g, bl, a := c.RGBA()
			pal[i] = [4]float32{float32(r) / 257, float32(g) / 257, float32(bl) / 257, float32(a) / 257}
		}
		return func(y int, out []float32) {
			i := m.PixOffset(b.Min.X+xlo, b.Min.Y+y)
			dst := px4(out)
			for x, idx := range m.Pix[i : i+(xhi-xlo)] {
				if int(idx) < len(pal) {
					dst[x] = pal[idx]
				} else {
					dst[x] = [4]float32{}
				}
			}
		}
	}
	return func(y int, out []float32) {
		for x := xlo; x < xhi; x++ {
			r, g, bl, a := src.At(b.Min.X+x, b.Min.Y+y).RGBA()
			o := out[(x-xlo)*4 : (x-xlo)*4+4 : (x-xlo)*4+4]
			o[0], o[1], o[2], o[3] = float32(r)/257, float32(g)/257, float32(bl)/257, float32(a)/257
		}
	}
}
