package svgraster

import (
	"image"
	"image/color"
	"image/draw"

	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// scanner is the rasterx.Scanner the filler and the dasher draw through. It keeps a shape's line
// segments and, on Draw, rasterizes them over the shape's own extent only (rasterx's ScannerGV
// clears and draws the whole picture for every shape). With evenOdd, each subpath is rasterized
// alone and the coverages are combined by parity.
type scanner struct {
	dst *image.RGBA
	src image.Image
	// evenOdd draws with the even-odd rule.
	evenOdd bool
	pts     []fixed.Point26_6
	// starts are the indexes in pts where subpaths start.
	starts []int
	r      vector.Rasterizer
	// mask is the shape's coverage; sub a subpath's, for even-odd.
	mask, sub *image.Alpha
	// work counts the pixels rasterized, up to workLimit; over answers whether it went past.
	work, workLimit int64
}

func newScanner(dst *image.RGBA, workLimit int64) *scanner {
	return &scanner{dst: dst, src: image.Opaque, workLimit: workLimit}
}

func (s *scanner) over() bool { return s.work > s.workLimit }

// Start begins a subpath.
func (s *scanner) Start(a fixed.Point26_6) {
	s.starts = append(s.starts, len(s.pts))
	s.pts = append(s.pts, a)
}

// Line continues the subpath.
func (s *scanner) Line(b fixed.Point26_6) {
	if len(s.starts) == 0 {
		s.starts = append(s.starts, 0)
	}
	s.pts = append(s.pts, b)
}

// Clear forgets the shape.
func (s *scanner) Clear() {
	s.pts = s.pts[:0]
	s.starts = s.starts[:0]
}

// SetBounds is a no-op: the bounds are the destination's.
func (s *scanner) SetBounds(int, int) {}

// SetColor sets the paint: a colour or an image (a gradient).
func (s *scanner) SetColor(c any) {
	switch c := c.(type) {
	case color.Color:
		s.src = image.NewUniform(c)
	case image.Image:
		s.src = c
	}
}

// SetWinding is a no-op: the item sets evenOdd itself.
func (s *scanner) SetWinding(bool) {}

// SetClip is a no-op: nothing clips.
func (s *scanner) SetClip(image.Rectangle) {}

// GetPathExtent is the box of the points so far.
func (s *scanner) GetPathExtent() fixed.Rectangle26_6 {
	return extentOf(s.pts)
}

func extentOf(pts []fixed.Point26_6) fixed.Rectangle26_6 {
	if len(pts) == 0 {
		return fixed.Rectangle26_6{}
	}
	r := fixed.Rectangle26_6{Min: pts[0], Max: pts[0]}
	for _, p := range pts[1:] {
		r.Min.X, r.Min.Y = min(r.Min.X, p.X), min(r.Min.Y, p.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, p.X), max(r.Max.Y, p.Y)
	}
	return r
}

// pixels is the destination area a set of points covers.
func (s *scanner) pixels(pts []fixed.Point26_6) image.Rectangle {
	e := extentOf(pts)
	r := image.Rect(e.Min.X.Floor(), e.Min.Y.Floor(), e.Max.X.Ceil()+1, e.Max.Y.Ceil()+1)
	return r.Intersect(s.dst.Rect)
}

// Draw paints the shape with the current paint. A plain colour over the non-zero rule goes
// straight through the rasterizer; otherwise the coverage is made into a mask first (per subpath
// and combined by parity for even-odd) and composited here, which for a gradient is many times
// faster than the rasterizer asking the gradient's At for every pixel.
func (s *scanner) Draw() {
	if len(s.pts) < 2 || s.over() {
		return
	}
	area := s.pixels(s.pts)
	if area.Empty() {
		return
	}
	_, uniform := s.src.(*image.Uniform)
	whole := !s.evenOdd || len(s.starts) == 1
	if whole && uniform {
		if s.count(area) {
			s.rasterize(area, 0, len(s.starts), false)
			s.r.DrawOp = draw.Over
			s.r.Draw(s.dst, area, s.src, area.Min)
		}
		return
	}
	s.mask = reuseAlpha(s.mask, area)
	if whole {
		if !s.count(area) {
			return
		}
		s.rasterize(area, 0, len(s.starts), false)
		s.r.DrawOp = draw.Src
		s.r.Draw(s.mask, area, image.Opaque, image.Point{})
	} else {
		for i := range s.starts {
			sub := s.pixels(s.subpath(i))
			if sub.Empty() {
				continue
			}
			if !s.count(sub) {
				return
			}
			s.rasterize(sub, i, i+1, true)
			s.sub = reuseAlpha(s.sub, sub)
			s.r.DrawOp = draw.Src
			s.r.Draw(s.sub, sub, image.Opaque, image.Point{})
			for y := sub.Min.Y; y < sub.Max.Y; y++ {
				row := s.mask.Pix[s.mask.PixOffset(sub.Min.X, y):]
				cov := s.sub.Pix[s.sub.PixOffset(sub.Min.X, y):]
				for x := range sub.Dx() {
					a, c := int(row[x]), int(cov[x])
					// Parity of two coverages: either one, not both.
					row[x] = uint8(a + c - (2*a*c+127)/255)
				}
			}
		}
	}
	s.composite(area)
}

// count adds area to the work done; false once past the limit.
func (s *scanner) count(area image.Rectangle) bool {
	s.work += int64(area.Dx()) * int64(area.Dy())
	return !s.over()
}

// composite paints the current paint through the mask over area, source over.
func (s *scanner) composite(area image.Rectangle) {
	g, _ := s.src.(*gradientImage)
	var flat color.RGBA
	if g == nil {
		r, gr, b, a := s.src.At(0, 0).RGBA()
		flat = color.RGBA{uint8(r >> 8), uint8(gr >> 8), uint8(b >> 8), uint8(a >> 8)}
	}
	for y := area.Min.Y; y < area.Max.Y; y++ {
		mrow := s.mask.Pix[s.mask.PixOffset(area.Min.X, y):]
		drow := s.dst.Pix[s.dst.PixOffset(area.Min.X, y):]
		for x := range area.Dx() {
			m := uint32(mrow[x])
			if m == 0 {
				continue
			}
			c := flat
			if g != nil {
				c = g.RGBAAt(area.Min.X+x, y)
			}
			sa := uint32(c.A) * m / 255
			inv := 255 - sa
			d := drow[4*x : 4*x+4 : 4*x+4]
			d[0] = uint8((uint32(c.R)*m + uint32(d[0])*inv + 127) / 255)
			d[1] = uint8((uint32(c.G)*m + uint32(d[1])*inv + 127) / 255)
			d[2] = uint8((uint32(c.B)*m + uint32(d[2])*inv + 127) / 255)
			d[3] = uint8((uint32(c.A)*m + uint32(d[3])*inv + 127) / 255)
		}
	}
}

// subpath is the points of subpath i.
func (s *scanner) subpath(i int) []fixed.Point26_6 {
	end := len(s.pts)
	if i+1 < len(s.starts) {
		end = s.starts[i+1]
	}
	return s.pts[s.starts[i]:end]
}

// rasterize loads subpaths [from, to) into the rasterizer, sized and shifted to area. The stroker
// draws an outline across several subpaths, which must stay open; a subpath drawn alone (even-odd)
// is closed.
func (s *scanner) rasterize(area image.Rectangle, from, to int, closeEach bool) {
	s.r.Reset(area.Dx(), area.Dy())
	ox, oy := float32(area.Min.X), float32(area.Min.Y)
	at := func(p fixed.Point26_6) (float32, float32) {
		return float32(p.X)/64 - ox, float32(p.Y)/64 - oy
	}
	for i := from; i < to; i++ {
		sub := s.subpath(i)
		s.r.MoveTo(at(sub[0]))
		for _, p := range sub[1:] {
			s.r.LineTo(at(p))
		}
		if closeEach {
			s.r.ClosePath()
		}
	}
}

// reuseAlpha is an alpha image over area, cleared, reusing a's memory when it is large enough.
func reuseAlpha(a *image.Alpha, area image.Rectangle) *image.Alpha {
	n := area.Dx() * area.Dy()
	if a == nil || cap(a.Pix) < n {
		return image.NewAlpha(area)
	}
	pix := a.Pix[:n]
	clear(pix)
	return &image.Alpha{Pix: pix, Stride: area.Dx(), Rect: area}
}
