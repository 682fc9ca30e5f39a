package raster

import (
	"context"
	"errors"
	"image"
	"io"
	"sync"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/imagelimit"
)

// drawUprightRows draws the upright image read from r placed as o onto the canvas, reading the source top
// down into a ring of the rows the resampler still needs: the decoding (pngdec.Rows, on this goroutine)
// and the resampling (on the workers) share the cores as the streaming path does, but a full-page
// artwork on a 13500x16200 print file costs a few hundred rows beside the canvas (about 50 MB) instead
// of its whole decoded size (875 MB). It draws exactly what drawImage draws: the same resampler over the
// same rows. It answers errWholeImage or imagelimit.ErrRowsUnsupported, having drawn nothing, when the
// ring would hold more than half the image (a big shrink) or the image is no 8-bit RGB or RGBA PNG; placed
// records the source size once the header is read. The whole file is read and checked, to IEND, also
// when the canvas needs none of its lower rows.
func drawUprightRows(ctx context.Context, canvas *image.RGBA, r io.Reader, limits imagelimit.Config,
	o *design.ImageObject, scale float64, workers int, placed func(w, h int)) error {
	box := fbox{o.X * scale, o.Y * scale, o.Width * scale, o.Height * scale}
	var (
		ring *rowRing
		done chan error
	)
	begin := func(w, h int) error {
		span := maxBandSpan(canvas.Bounds(), h, box, catmullRom, workers)
		// The workers' bands in flight and the one being decoded.
		capacity := min(h, (workers+1)*span)
		if 2*capacity > h {
			return errWholeImage
		}
		placed(w, h)
		ring = newRowRing(w, h, max(capacity, 1))
		done = make(chan error, 1)
		go func() {
			err := resampleRows(ctx, canvas, ring.source(), box, catmullRom, workers)
			ring.stop(err)
			done <- err
		}()
		return nil
	}
	err := imagelimit.DecodeRows(r, limits, begin, func(y int, row []byte) error { return ring.put(y, row) })
	if ring == nil {
		return err // refused, or failed, before a row was drawn
	}
	ring.end(err)
	drawErr := <-done
	if err == nil || errors.Is(err, errRingStopped) {
		return drawErr
	}
	return err
}

// maxBandSpan is the most source rows one band of resampleRows reads, for a source of srcH rows placed as
// box on dst, with the bands resampleRows takes from a source still arriving.
func maxBandSpan(dst image.Rectangle, srcH int, box fbox, k kernel, workers int) int {
	dx0, dx1, dy0, dy1 := clip(dst, box)
	if srcH <= 0 || box.w <= 0 || box.h <= 0 || dx0 >= dx1 || dy0 >= dy1 {
		return 0
	}
	vw := makeWeights(k, srcH, box.y, box.h, dy0, dy1)
	rows := dy1 - dy0
	band := bandRows(rows, workerCount(workers), true)
	span := 0
	for b := 0; b < rows; b += band {
		lo, hi := srcH, 0
		for i := b; i < min(b+band, rows); i++ {
			lo, hi = min(lo, vw.start[i]), max(hi, vw.start[i]+vw.count[i])
		}
		span = max(span, hi-lo)
	}
	return span
}

// errRingStopped ends the decoding of an image whose drawing failed.
var errRingStopped = errors.New("raster: the drawing of the image stopped")

// rowRing holds the rows of an image read top down that the resampler may still read: row y in slot
// y % capacity. The decoder puts each row, waiting while the ring is full of rows still needed; the
// resampler waits for the rows it needs (ready) and says which it is done with (release). Its capacity
// must be at least the rows one band reads, or the two would wait for each other.
type rowRing struct {
	mu       sync.Mutex
	cond     *sync.Cond
	width    int
	height   int
	capacity int
	stride   int
	pix      []byte
	// decoded rows [0, decoded) were put; rows below low are no longer read.
	decoded, low int
	// ended: the decoding is over, with err (nil: every row was put).
	ended bool
	err   error
	// stopped: the drawing is over, with stopErr (nil: it needs no more rows).
	stopped bool
	stopErr error
}

func newRowRing(width, height, capacity int) *rowRing {
	r := &rowRing{width: width, height: height, capacity: capacity, stride: 4 * width, pix: make([]byte, 4*width*capacity)}
	r.cond = sync.NewCond(&r.mu)
	return r
}

// source is the ring as resampleRows reads it.
func (r *rowRing) source() rowSource {
	return rowSource{width: r.width, height: r.height, ready: r.ready, release: r.release,
		fetcher: func(xlo, xhi int) func(int, []float32) {
			return func(y int, out []float32) {
				i := (y%r.capacity)*r.stride + 4*xlo
				premultiply(r.pix[i:i+4*(xhi-xlo)], out)
			}
		}}
}

// put stores row y (non-premultiplied RGBA), once its slot's last row is no longer read. After the drawing
// stopped it stores nothing: it answers errRingStopped when the drawing failed, nil when it is done.
func (r *rowRing) put(y int, row []byte) error {
	r.mu.Lock()
	for y >= r.low+r.capacity && !r.stopped {
		r.cond.Wait()
	}
	stopped, stopErr := r.stopped, r.stopErr
	r.mu.Unlock()
	switch {
	case stopped && stopErr != nil:
		return errRingStopped
	case stopped:
		return nil
	}
	copy(r.pix[(y%r.capacity)*r.stride:], row)
	r.mu.Lock()
	r.decoded = y + 1
	r.cond.Broadcast()
	r.mu.Unlock()
	return nil
}

// ready waits until rows [0, n) were put, or answers why they never will be.
func (r *rowRing) ready(n int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for r.decoded < n && !r.ended {
		r.cond.Wait()
	}
	switch {
	case r.decoded >= n:
		return nil
	case r.err != nil:
		return r.err
	}
	return io.ErrUnexpectedEOF
}

// release tells that rows above n are no longer read.
func (r *rowRing) release(n int) {
	r.mu.Lock()
	r.low = max(r.low, n)
	r.cond.Broadcast()
	r.mu.Unlock()
}

// end records that the decoding is over, with err (nil: every row was put).
func (r *rowRing) end(err error) {
	r.mu.Lock()
	r.ended, r.err = true, err
	r.cond.Broadcast()
	r.mu.Unlock()
}

// stop records that the drawing is over, with err (nil: it reads no more rows).
func (r *rowRing) stop(err error) {
	r.mu.Lock()
	r.stopped, r.stopErr = true, err
	r.cond.Broadcast()
	r.mu.Unlock()
}
