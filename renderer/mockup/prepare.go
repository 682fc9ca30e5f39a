package mockup

import (
	"context"
	"fmt"
	"image"
	"image/draw"
	"math"

	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/raster"
)

// prepared is a template decoded, cropped and scaled to one output size: what a render reads, never
// writes, so one prepared template serves concurrent renders.
type prepared struct {
	w, h int
	// base is the photo at the output size, premultiplied.
	base *image.RGBA
	// tint is the tint map at the output size (w*h bytes), nil when the template has none; tintSpans[y]
	// is the [x0, x1) of row y outside which the row's tint is zero.
	tint      []uint8
	tintSpans [][2]int
	// quad is the print area in output pixels.
	quad [4]Point
	// region is the quad's bounding box grown by the largest displacement, clipped to the output: the only
	// pixels the print can reach. mask, shade and disp cover exactly this region.
	region image.Rectangle
	// mask and shade are region-sized maps; nil means all white.
	mask, shade []uint8
	// disp holds two offsets (x, y) per region pixel in 1/dispUnit output pixels; nil means none.
	disp []int16
	// maxDisp is the largest offset in output pixels.
	maxDisp float64
	// bytes is the memory held, for the cache's budget.
	bytes int64
}

// dispUnit is the fixed-point unit of prepared displacement offsets: 1/64 output pixel.
const dispUnit = 64

// prepare reads the template's images through the loader and scales them to size.
func (r *Renderer) prepare(ctx context.Context, t *Template, size int) (*prepared, error) {
	view := t.View()
	w, h := t.OutputSize(size)
	sx, sy := float64(w)/float64(view.Width), float64(h)/float64(view.Height)
	p := &prepared{w: w, h: h}
	for i, q := range t.Quad {
		p.quad[i] = Point{(q.X - float64(view.X)) * sx, (q.Y - float64(view.Y)) * sy}
	}

	base, err := r.loadImage(ctx, t, "base", t.Base)
	if err != nil {
		return nil, err
	}
	p.base = image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(p.base, p.base.Rect, scaled(base, view, w, h), image.Point{}, draw.Src)

	if t.Tint != "" {
		img, err := r.loadImage(ctx, t, "tint", t.Tint)
		if err != nil {
			return nil, err
		}
		p.tint = channel(scaled(img, view, w, h), p.base.Rect, 0)
		p.tintSpans = spans(p.tint, w, h)
	}

	if t.Displacement != "" {
		p.maxDisp = t.DisplacementScale * math.Max(sx, sy)
	}
	grow := int(math.Ceil(p.maxDisp)) + 2
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range p.quad {
		minX, minY = math.Min(minX, q.X), math.Min(minY, q.Y)
		maxX, maxY = math.Max(maxX, q.X), math.Max(maxY, q.Y)
	}
	p.region = image.Rect(int(math.Floor(minX))-grow, int(math.Floor(minY))-grow,
		int(math.Ceil(maxX))+grow, int(math.Ceil(maxY))+grow).Intersect(p.base.Rect)

	if t.Mask != "" {
		img, err := r.loadImage(ctx, t, "mask", t.Mask)
		if err != nil {
			return nil, err
		}
		p.mask = channel(scaled(img, view, w, h), p.region, 0)
	}
	if t.Shadow != "" {
		img, err := r.loadImage(ctx, t, "shadow", t.Shadow)
		if err != nil {
			return nil, err
		}
		p.shade = channel(scaled(img, view, w, h), p.region, 0)
	}
	if t.Displacement != "" {
		img, err := r.loadImage(ctx, t, "displacement", t.Displacement)
		if err != nil {
			return nil, err
		}
		m := scaled(img, view, w, h)
		dx, dy := channel(m, p.region, 0), channel(m, p.region, 1)
		p.disp = make([]int16, 2*len(dx))
		for i := range dx {
			p.disp[2*i] = dispOffset(dx[i], t.DisplacementScale*sx)
			p.disp[2*i+1] = dispOffset(dy[i], t.DisplacementScale*sy)
		}
	}
	p.bytes = int64(len(p.base.Pix) + len(p.tint) + 16*len(p.tintSpans) + len(p.mask) + len(p.shade) + 2*len(p.disp))
	return p, nil
}

// dispOffset turns a map value (128 = none, 0 and 255 = -/+ scale) into a fixed-point offset.
func dispOffset(v uint8, scale float64) int16 {
	f := math.Max(-1, math.Min(1, (float64(v)-128)/127))
	return int16(math.Round(f * scale * dispUnit))
}

// loadImage reads and decodes one of the template's images and checks that it is the photo's size.
func (r *Renderer) loadImage(ctx context.Context, t *Template, field, src string) (image.Image, error) {
	rc, err := r.loader.Open(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("%w: template %s: %s %q: %w", ErrInvalidTemplate, t.ID, field, src, err)
	}
	defer rc.Close()
	img, _, err := imagelimit.Decode(rc, r.cfg.Limits)
	if err != nil {
		return nil, fmt.Errorf("%w: template %s: %s %q: %w", ErrInvalidTemplate, t.ID, field, src, err)
	}
	if b := img.Bounds(); b.Dx() != t.Width || b.Dy() != t.Height {
		return nil, fmt.Errorf("%w: template %s: %s %q is %dx%d, want the photo's %dx%d",
			ErrInvalidTemplate, t.ID, field, src, b.Dx(), b.Dy(), t.Width, t.Height)
	}
	return img, nil
}

// scaled crops img to the view and scales it to w x h (straight alpha).
func scaled(img image.Image, view Rect, w, h int) *image.NRGBA {
	b := img.Bounds()
	crop := image.Rect(view.X, view.Y, view.X+view.Width, view.Y+view.Height).Add(b.Min).Intersect(b)
	var c image.Image = image.NewNRGBA(image.Rectangle{}) // an empty view
	if sub, ok := img.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok {
		c = sub.SubImage(crop)
	}
	if c.Bounds().Dx() == w && c.Bounds().Dy() == h {
		return raster.NRGBA(c)
	}
	return raster.Resize(c, w, h)
}

// channel copies channel c (0 red, 1 green) of the part r of m.
func channel(m *image.NRGBA, r image.Rectangle, c int) []uint8 {
	out := make([]uint8, r.Dx()*r.Dy())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := m.Pix[y*m.Stride:]
		o := out[(y-r.Min.Y)*r.Dx():]
		for x := r.Min.X; x < r.Max.X; x++ {
			o[x-r.Min.X] = row[4*x+c]
		}
	}
	return out
}

// spans finds for each row of a w x h map the [x0, x1) outside which it is zero (x0 == x1: all zero).
func spans(m []uint8, w, h int) [][2]int {
	s := make([][2]int, h)
	for y := range h {
		row := m[y*w : (y+1)*w]
		x0, x1 := 0, w
		for x0 < w && row[x0] == 0 {
			x0++
		}
		for x1 > x0 && row[x1-1] == 0 {
			x1--
		}
		s[y] = [2]int{x0, x1}
	}
	return s
}
