package raster

import (
	"context"
	"fmt"
	"image"
	"image/color"
	stddraw "image/draw"
	"io"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/fonts"
)

// maxFontBytes caps a fontUrl file.
const maxFontBytes = 32 << 20

// drawTextStep lays out one text object and paints its glyphs as its displayStyle says.
func drawTextStep(o *design.TextObject) step {
	return step{Name: "draw text " + o.ID, Run: func(ctx context.Context, s *state) error {
		if err := drawText(ctx, s, o); err != nil {
			return fmt.Errorf("text %s: %w", o.ID, err)
		}
		return nil
	}}
}

func drawText(ctx context.Context, s *state, o *design.TextObject) error {
	roboto, err := fonts.Default()
	if err != nil {
		return fmt.Errorf("default font: %w", err)
	}
	sh := &shaper{primary: s.fontFor(ctx, o, roboto), fallback: roboto}
	lay := layoutText(sh, o)
	if lay.shrunk {
		s.report.Warnings = append(s.report.Warnings, Warning{ObjectID: o.ID,
			Message: fmt.Sprintf("limited text shrunk from font size %s to %s to fit width %s",
				fmtNum(o.FontSize), fmtNum(lay.size), fmtNum(o.Width))})
	}
	tr := newTextTransform(o, s.scale)
	path := glyphPath(sh, lay, tr)
	if len(path.segs) == 0 {
		return nil
	}
	var paint maskPainter
	switch o.DisplayStyle {
	case design.DisplayTransparent:
		paint = knockOut
	case design.DisplayImageBackground:
		bg, err := s.loadImage(ctx, o.BackgroundURL)
		if err != nil {
			return fmt.Errorf("backgroundUrl: %w", err)
		}
		paint = patternPainter(bg, lay, tr)
	default:
		c, err := parseFill(o.Fill)
		if err != nil {
			return err
		}
		paint = colorPainter(c)
	}
	return fillPath(ctx, s.canvas, path, paint)
}

// fontFor returns the object's font, or Roboto with a FontFallback in the report.
func (s *state) fontFor(ctx context.Context, o *design.TextObject, roboto *sfnt.Font) *sfnt.Font {
	if o.FontURL == "" {
		if !strings.EqualFold(o.FontFamily, fonts.DefaultFamily) && o.FontFamily != "" {
			s.report.FontFallbacks = append(s.report.FontFallbacks, FontFallback{ObjectID: o.ID, Requested: o.FontFamily,
				Reason: "no fontUrl for this family; used " + fonts.DefaultFamily})
		}
		return roboto
	}
	if s.fonts == nil {
		s.fonts, s.fontErrs = map[string]*sfnt.Font{}, map[string]error{}
	}
	f, ok := s.fonts[o.FontURL]
	err := s.fontErrs[o.FontURL]
	if !ok && err == nil {
		f, err = s.loadFont(ctx, o.FontURL)
		if err != nil {
			s.fontErrs[o.FontURL] = err
		} else {
			s.fonts[o.FontURL] = f
		}
	}
	if err != nil {
		s.report.FontFallbacks = append(s.report.FontFallbacks, FontFallback{ObjectID: o.ID, Requested: o.FontURL,
			Reason: err.Error() + "; used " + fonts.DefaultFamily})
		return roboto
	}
	return f
}

func (s *state) loadFont(ctx context.Context, src string) (*sfnt.Font, error) {
	if data, ok := fonts.PlatformFile(src); ok {
		return sfnt.Parse(data)
	}
	rc, err := s.open(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("load font: %w", err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxFontBytes+1))
	if err != nil {
		return nil, fmt.Errorf("load font: %w", err)
	}
	if len(data) > maxFontBytes {
		return nil, fmt.Errorf("load font: larger than %d bytes", maxFontBytes)
	}
	f, err := sfnt.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("font is not TrueType or OpenType: %w", err)
	}
	return f, nil
}

// textTransform maps the text's local frame (print pixels, origin (x, y), unrotated) to canvas pixels.
type textTransform struct {
	x, y, sin, cos, scale float64
}

func newTextTransform(o *design.TextObject, scale float64) textTransform {
	sin, cos := math.Sincos(math.Mod(o.Rotation, 360) * math.Pi / 180)
	return textTransform{x: o.X, y: o.Y, sin: sin, cos: cos, scale: scale}
}

func (t textTransform) apply(lx, ly float64) (float64, float64) {
	return (t.x + lx*t.cos - ly*t.sin) * t.scale, (t.y + lx*t.sin + ly*t.cos) * t.scale
}

// invert maps a canvas point back to the local frame.
func (t textTransform) invert(cx, cy float64) (float64, float64) {
	dx, dy := cx/t.scale-t.x, cy/t.scale-t.y
	return dx*t.cos + dy*t.sin, -dx*t.sin + dy*t.cos
}

// pathSeg is one outline segment in canvas pixels.
type pathSeg struct {
	op  sfnt.SegmentOp
	pts [3][2]float32
}

type glyphOutline struct {
	segs   []pathSeg
	bounds image.Rectangle // canvas pixels covered, before clipping
}

// glyphPath collects every glyph outline of the layout, transformed to canvas pixels.
func glyphPath(sh *shaper, lay textLayout, tr textTransform) glyphOutline {
	var out glyphOutline
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for li, l := range lay.lines {
		for _, g := range l.glyphs {
			upem := g.font.UnitsPerEm()
			segs, err := g.font.LoadGlyph(&sh.buf, g.idx, fixed.I(int(upem)), nil)
			if err != nil {
				continue
			}
			k := lay.size / float64(upem) / 64 // 26.6 font units -> print pixels
			ox := lay.lineX[li] + g.x*lay.size
			oy := lay.baseline[li]
			for _, sg := range segs {
				ps := pathSeg{op: sg.Op}
				n := map[sfnt.SegmentOp]int{sfnt.SegmentOpMoveTo: 1, sfnt.SegmentOpLineTo: 1, sfnt.SegmentOpQuadTo: 2, sfnt.SegmentOpCubeTo: 3}[sg.Op]
				for i := range n {
					cx, cy := tr.apply(ox+float64(sg.Args[i].X)*k, oy+float64(sg.Args[i].Y)*k)
					ps.pts[i] = [2]float32{float32(cx), float32(cy)}
					minX, minY, maxX, maxY = math.Min(minX, cx), math.Min(minY, cy), math.Max(maxX, cx), math.Max(maxY, cy)
				}
				out.segs = append(out.segs, ps)
			}
		}
	}
	if len(out.segs) > 0 {
		out.bounds = image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1)
	}
	return out
}

// maskPainter composites a coverage mask onto the canvas rectangle r (mask pixel (0,0) is r.Min).
type maskPainter func(canvas *image.RGBA, r image.Rectangle, mask *image.Alpha)

// fillPath rasterises the outline in horizontal bands (so a huge text never needs a canvas-sized mask) and
// hands each band's coverage to paint.
func fillPath(ctx context.Context, canvas *image.RGBA, path glyphOutline, paint maskPainter) error {
	clip := path.bounds.Intersect(canvas.Bounds())
	if clip.Empty() {
		return nil
	}
	w := clip.Dx()
	bandH := min(clip.Dy(), max(16, (4<<20)/w))
	mask := image.NewAlpha(image.Rect(0, 0, w, bandH))
	var z vector.Rasterizer
	z.DrawOp = stddraw.Src
	for y0 := clip.Min.Y; y0 < clip.Max.Y; y0 += bandH {
		if err := ctx.Err(); err != nil {
			return err
		}
		h := min(bandH, clip.Max.Y-y0)
		z.Reset(w, h)
		ox, oy := float32(clip.Min.X), float32(y0)
		for _, sg := range path.segs {
			p := sg.pts
			switch sg.op {
			case sfnt.SegmentOpMoveTo:
				z.MoveTo(p[0][0]-ox, p[0][1]-oy)
			case sfnt.SegmentOpLineTo:
				z.LineTo(p[0][0]-ox, p[0][1]-oy)
			case sfnt.SegmentOpQuadTo:
				z.QuadTo(p[0][0]-ox, p[0][1]-oy, p[1][0]-ox, p[1][1]-oy)
			case sfnt.SegmentOpCubeTo:
				z.CubeTo(p[0][0]-ox, p[0][1]-oy, p[1][0]-ox, p[1][1]-oy, p[2][0]-ox, p[2][1]-oy)
			}
		}
		z.ClosePath()
		m := mask.SubImage(image.Rect(0, 0, w, h)).(*image.Alpha)
		z.Draw(m, m.Bounds(), image.Opaque, image.Point{})
		paint(canvas, image.Rect(clip.Min.X, y0, clip.Max.X, y0+h), m)
	}
	return nil
}

// colorPainter paints the glyphs with a colour.
func colorPainter(c color.NRGBA) maskPainter {
	src := image.NewUniform(c)
	return func(canvas *image.RGBA, r image.Rectangle, mask *image.Alpha) {
		stddraw.DrawMask(canvas, r, src, image.Point{}, mask, image.Point{}, stddraw.Over)
	}
}

// knockOut removes the glyphs from what is under them (destination-out).
func knockOut(canvas *image.RGBA, r image.Rectangle, mask *image.Alpha) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		mrow := mask.Pix[(y-r.Min.Y)*mask.Stride : (y-r.Min.Y)*mask.Stride+r.Dx()]
		off := canvas.PixOffset(r.Min.X, y)
		crow := canvas.Pix[off : off+r.Dx()*4]
		for x, m := range mrow {
			if m == 0 {
				continue
			}
			keep := uint32(255 - m)
			p := crow[x*4 : x*4+4 : x*4+4]
			for i := range p {
				p[i] = uint8((uint32(p[i])*keep + 127) / 255)
			}
		}
	}
}

// patternPainter paints the glyphs with bg scaled to cover the text box, centred, in the text's frame.
func patternPainter(bg image.Image, lay textLayout, tr textTransform) maskPainter {
	boxW, boxH := lay.boxW*tr.scale, lay.boxH*tr.scale // output pixels
	bw, bh := float64(bg.Bounds().Dx()), float64(bg.Bounds().Dy())
	c := math.Max(boxW/bw, boxH/bh) // output pixels per background pixel
	var pat *image.NRGBA
	if c < 0.5 { // shrink a big background first so sampling does not alias
		pat = Resize(bg, max(1, int(math.Round(bw*c))), max(1, int(math.Round(bh*c))))
	} else {
		pat = NRGBA(bg)
	}
	pw, ph := float64(pat.Rect.Dx()), float64(pat.Rect.Dy())
	c = math.Max(boxW/pw, boxH/ph)
	offX, offY := (boxW-pw*c)/2, (boxH-ph*c)/2
	return func(canvas *image.RGBA, r image.Rectangle, mask *image.Alpha) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			mrow := mask.Pix[(y-r.Min.Y)*mask.Stride : (y-r.Min.Y)*mask.Stride+r.Dx()]
			off := canvas.PixOffset(r.Min.X, y)
			crow := canvas.Pix[off : off+r.Dx()*4]
			for x, m := range mrow {
				if m == 0 {
					continue
				}
				lx, ly := tr.invert(float64(r.Min.X+x)+0.5, float64(y)+0.5)
				u := ((lx-lay.boxX)*tr.scale - offX) / c
				v := (ly*tr.scale - offY) / c
				sr, sg, sb, sa := bilinearPremul(pat, u-0.5, v-0.5)
				f := float64(m) / 255
				sr, sg, sb, sa = sr*f, sg*f, sb*f, sa*f
				p := crow[x*4 : x*4+4 : x*4+4]
				inv := 1 - sa/255
				p[0] = uint8(sr + float64(p[0])*inv + 0.5)
				p[1] = uint8(sg + float64(p[1])*inv + 0.5)
				p[2] = uint8(sb + float64(p[2])*inv + 0.5)
				p[3] = uint8(sa + float64(p[3])*inv + 0.5)
			}
		}
	}
}

// bilinearPremul samples img at continuous pixel coordinates (clamped to the edges), premultiplied.
func bilinearPremul(img *image.NRGBA, x, y float64) (r, g, b, a float64) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x = math.Min(math.Max(x, 0), float64(w-1))
	y = math.Min(math.Max(y, 0), float64(h-1))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, w-1), min(y0+1, h-1)
	fx, fy := x-float64(x0), y-float64(y0)
	for _, t := range [4]struct {
		x, y int
		w    float64
	}{{x0, y0, (1 - fx) * (1 - fy)}, {x1, y0, fx * (1 - fy)}, {x0, y1, (1 - fx) * fy}, {x1, y1, fx * fy}} {
		p := img.Pix[t.y*img.Stride+t.x*4 : t.y*img.Stride+t.x*4+4]
		pa := float64(p[3]) / 255 * t.w
		r += float64(p[0]) * pa
		g += float64(p[1]) * pa
		b += float64(p[2]) * pa
		a += float64(p[3]) * t.w
	}
	return r, g, b, a
}

// parseFill reads "#rgb", "#rrggbb" or "#rrggbbaa"; the parser has already checked the form.
func parseFill(s string) (color.NRGBA, error) {
	h := strings.TrimPrefix(s, "#")
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	if len(h) == 6 {
		h += "ff"
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if len(h) != 8 || err != nil {
		return color.NRGBA{}, fmt.Errorf("fill %q is not a colour", s)
	}
	return color.NRGBA{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}, nil
}

func fmtNum(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }
