package raster

import (
	"context"
	"errors"
	"image"
	"io"
	"math"

	"golang.org/x/image/draw"
	"golang.org/x/image/math/f64"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/imagelimit"
)

// errWholeImage means a rotated image is better drawn whole (drawImage): it is shrunk, turned
// past a quarter, or its rows would not be read through a window much smaller than the image.
var errWholeImage = errors.New("raster: draw the image whole")

// rowsBand is the canvas rows a rotated image is drawn in at a time by drawRotatedRows.
const rowsBand = 512

// drawRotatedRows draws the rotated, not shrunk image read from r placed as o onto the canvas,
// reading the source top down and keeping only the window of its rows that the canvas band being
// drawn needs: a full-page artwork turned a few degrees costs a few hundred rows (about 100 MB at
// 13500 px wide) instead of its whole decoded size (875 MB) on top of the canvas. It draws what
// drawImage draws for the same image (the same kernel over the same source pixels). It answers
// errWholeImage or imagelimit.ErrRowsUnsupported, having drawn nothing, when the image is better
// drawn whole or is no 8-bit RGB or RGBA PNG; placed records the source size once the header is read.
func drawRotatedRows(ctx context.Context, canvas *image.RGBA, r io.Reader, limits imagelimit.Config,
	o *design.ImageObject, scale float64, placed func(w, h int)) error {
	box := fbox{o.X * scale, o.Y * scale, o.Width * scale, o.Height * scale}
	rot := math.Mod(o.Rotation, 360)
	sin, cos := math.Sincos(rot * math.Pi / 180)
	var (
		s2d      f64.Aff3
		w, h     int
		lo, hi   []int // the source rows [lo[b], hi[b]) band b needs
		bandY    []int // band b's first canvas row; the last entry ends the last band
		win      *image.NRGBA
		wlo, n   int // the window holds source rows [wlo, wlo+n)
		b        int // the next band to draw
		capacity int
	)
	begin := func(width, height int) error {
		w, h = width, height
		if rot == 0 || cos <= 0 || box.w < float64(w) || box.h < float64(h) {
			return errWholeImage
		}
		kx, ky := box.w/float64(w), box.h/float64(h)
		s2d = f64.Aff3{cos * kx, -sin * ky, box.x, sin * kx, cos * ky, box.y}
		// The canvas rows the image covers: the bounding box of its corners, on the canvas.
		minY, maxY := math.Inf(1), math.Inf(-1)
		minX, maxX := math.Inf(1), math.Inf(-1)
		for _, c := range [4][2]float64{{0, 0}, {float64(w), 0}, {0, float64(h)}, {float64(w), float64(h)}} {
			x, y := s2d[0]*c[0]+s2d[1]*c[1]+s2d[2], s2d[3]*c[0]+s2d[4]*c[1]+s2d[5]
			minX, maxX, minY, maxY = min(minX, x), max(maxX, x), min(minY, y), max(maxY, y)
		}
		cb := canvas.Bounds()
		y0, y1 := max(cb.Min.Y, int(math.Floor(minY))), min(cb.Max.Y, int(math.Ceil(maxY)))
		x0, x1 := float64(max(cb.Min.X, int(math.Floor(minX)))), float64(min(cb.Max.X, int(math.Ceil(maxX))))
		if y0 >= y1 || x0 >= x1 {
			placed(w, h)
			return nil // nothing of it on the canvas
		}
		// The source row of a canvas point, and the kernel's reach around it (draw's Transform
		// widens the kernel by the larger scale factor when it shrinks, never below its support).
		srcY := func(x, y float64) float64 { return (-sin*(x-box.x) + cos*(y-box.y)) / ky }
		reach := int(math.Ceil(draw.CatmullRom.Support*max(1, math.Abs(sin/kx), math.Abs(cos/ky)))) + 2
		for y := y0; y < y1; y += rowsBand {
			ye := min(y+rowsBand, y1)
			// Pixel centres: the first and last rows and columns, plus and minus half a pixel.
			lowest, highest := math.Inf(1), math.Inf(-1)
			for _, c := range [4][2]float64{{x0, float64(y)}, {x1, float64(y)}, {x0, float64(ye)}, {x1, float64(ye)}} {
				sy := srcY(c[0], c[1])
				lowest, highest = min(lowest, sy), max(highest, sy)
			}
			l := max(0, int(math.Floor(lowest-0.5))-reach)
			u := min(h, int(math.Ceil(highest-0.5))+reach+1)
			bandY, lo, hi = append(bandY, y), append(lo, l), append(hi, max(l, u))
			capacity = max(capacity, max(l, u)-l)
		}
		bandY = append(bandY, y1)
		if 2*capacity > h {
			return errWholeImage
		}
		placed(w, h)
		win = &image.NRGBA{Pix: make([]byte, capacity*4*w), Stride: 4 * w}
		return nil
	}
	drawBand := func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if hi[b] > lo[b] {
			win.Rect = image.Rect(0, wlo, w, wlo+n)
			win.Pix = win.Pix[:cap(win.Pix)]
			band := canvas.SubImage(image.Rect(canvas.Rect.Min.X, bandY[b], canvas.Rect.Max.X, bandY[b+1])).(*image.RGBA)
			draw.CatmullRom.Transform(band, s2d, win, image.Rect(0, max(wlo, lo[b]), w, min(wlo+n, hi[b])), draw.Over, nil)
		}
		b++
		if b < len(lo) && lo[b] > wlo { // drop the rows no later band needs
			k := min(lo[b]-wlo, n)
			copy(win.Pix, win.Pix[k*win.Stride:n*win.Stride])
			wlo, n = wlo+k, n-k
		}
		return nil
	}
	each := func(y int, row []byte) error {
		if b >= len(lo) || y < lo[b] {
			return nil
		}
		if n == 0 {
			wlo = y
		}
		copy(win.Pix[(y-wlo)*win.Stride:], row)
		n = y - wlo + 1
		for b < len(lo) && hi[b] <= y+1 {
			if err := drawBand(); err != nil {
				return err
			}
		}
		return nil
	}
	if err := imagelimit.DecodeRows(r, limits, begin, each); err != nil {
		return err
	}
	for b < len(lo) {
		if err := drawBand(); err != nil {
			return err
		}
	}
	return nil
}
