package demo

import (
	"math"

	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/outlines"
)

// product is one demo template: its metadata, its print area (in units) and how its photo looks.
type product struct {
	id, name, printSpace string
	quad                 [4]pt
	// displacement is the displacement scale in units (0: no displacement map).
	displacement float64
	tint         bool
	color        string
	draw         func(x, y, px float64) sample
}

// The garments' shapes and print areas are the catalogue's (renderer/outlines), which the editor draws
// around a print area too.
var (
	shirt  = points(outlines.Shirt)
	hoodie = points(outlines.Hoodie)
)

// points converts an outline's points to the drawing's.
func points(ps []outlines.Point) []pt {
	out := make([]pt, len(ps))
	for i, p := range ps {
		out[i] = pt{p.X, p.Y}
	}
	return out
}

// quadOf is a print area as a template quad: top left, top right, bottom right, bottom left.
func quadOf(r outlines.Rect) [4]pt {
	return [4]pt{{r.X0, r.Y0}, {r.X1, r.Y0}, {r.X1, r.Y1}, {r.X0, r.Y1}}
}

// ellipseAt is the signed distance from (x, y) to the ellipse e: negative inside.
func ellipseAt(x, y float64, e outlines.Ellipse) float64 {
	return ellipseSD(x, y, e.CX, e.CY, e.RX, e.RY)
}

var products = []product{
	{
		id: "tshirt-front", name: "T-shirt, front", printSpace: "front", tint: true, color: "#ffffff",
		quad:         quadOf(outlines.ShirtFront),
		displacement: 3,
		draw:         func(x, y, px float64) sample { return garment(x, y, px, shirt, neckFront) },
	},
	{
		id: "tshirt-back", name: "T-shirt, back", printSpace: "back", tint: true, color: "#ffffff",
		quad:         quadOf(outlines.ShirtBack),
		displacement: 3,
		draw:         func(x, y, px float64) sample { return garment(x, y, px, shirt, neckBack) },
	},
	{
		id: "hoodie-front", name: "Hoodie, front", printSpace: "front", tint: true, color: "#ffffff",
		quad:         quadOf(outlines.HoodieFront),
		displacement: 3,
		draw:         drawHoodie,
	},
	{
		id: "mug-wrap", name: "Mug, wrap", printSpace: "wrap", tint: true, color: "#ffffff",
		quad:         [4]pt{{290, 330}, {640, 342}, {640, 688}, {290, 700}},
		displacement: 12,
		draw:         drawMug,
	},
	{
		id: "poster", name: "Poster", printSpace: "front",
		quad:         [4]pt{{300, 140}, {700, 170}, {700, 830}, {300, 860}},
		displacement: 1.5,
		draw:         drawPoster,
	},
	{
		id: "aop-shirt-front", name: "All-over-print shirt, front", printSpace: "front",
		quad:         quadOf(outlines.AllOverPrint),
		displacement: 3,
		draw:         func(x, y, px float64) sample { return garment(x, y, px, shirt, neckFront) },
	},
}

// neck draws the collar of a garment: what shows of the inside (d < 0: inside it) and the rib around it.
type neck func(x, y float64) (inside, rib float64)

func neckFront(x, y float64) (float64, float64) {
	d := ellipseAt(x, y, outlines.CollarFront)
	return d, math.Abs(d+6) - 6
}

func neckBack(x, y float64) (float64, float64) {
	d := ellipseAt(x, y, outlines.CollarBack)
	return d, math.Abs(d+5) - 5
}

// garment draws a shirt: the body tinted and printable, the inside of the collar darker and left out of
// the print, a drop shadow on the backdrop.
func garment(x, y, px float64, outline []pt, collar neck) sample {
	d := polygonSD(outline, x, y)
	in := coverage(d, px)
	back := scale(studio(x, y), dropShadow(polygonSD(outline, x-8, y-12)))
	if in == 0 {
		return sample{base: back, shade: 1}
	}
	shade, dx, dy := fabric(x, y, d)
	cloth := grey(0.97 * shade)
	inner, rib := collar(x, y)
	hole := coverage(inner, px)
	cloth = blend(cloth, grey(0.62*shade), hole)
	ribC := coverage(rib, px)
	cloth = blend(cloth, grey(0.9*shade), ribC*(1-hole))
	printable := in * (1 - hole) * (1 - ribC)
	return sample{base: blend(back, cloth, in), tint: in, mask: printable, shade: shade, dispX: dx * in, dispY: dy * in}
}

func drawHoodie(x, y, px float64) sample {
	back := studio(x, y)
	hood := ellipseAt(x, y, outlines.Hood)
	d := math.Min(polygonSD(hoodie, x, y), hood)
	back = scale(back, dropShadow(math.Min(polygonSD(hoodie, x-8, y-12), ellipseAt(x-8, y-12, outlines.Hood))))
	in := coverage(d, px)
	if in == 0 {
		return sample{base: back, shade: 1}
	}
	shade, dx, dy := fabric(x, y, d)
	cloth := grey(0.95 * shade)
	// the opening of the hood and its shadowed inside
	opening := coverage(ellipseAt(x, y, outlines.HoodOpening), px)
	cloth = blend(cloth, grey(0.45*shade), opening)
	// drawstrings and the kangaroo pocket's seam
	strings := coverage(math.Min(math.Abs(x-(472-0.03*(y-250)))-2.5, math.Abs(x-(528+0.03*(y-250)))-2.5)+math.Max(0, math.Max(250-y, y-420)), px)
	cloth = blend(cloth, grey(0.8*shade), strings)
	pocket := polygonSD([]pt{{370, 660}, {630, 660}, {680, 840}, {320, 840}}, x, y)
	seam := coverage(math.Abs(pocket)-1.5, px)
	cloth = blend(cloth, grey(0.75*shade), seam)
	if pocket < 0 {
		cloth = scale(cloth, 0.97)
	}
	printable := in * (1 - opening) * (1 - strings) * coverage(-pocket+4, px)
	return sample{base: blend(back, cloth, in), tint: in, mask: printable, shade: shade, dispX: dx * in, dispY: dy * in}
}

// drawMug draws a mug seen from the front and a little above: a cylinder (with the wrap's curvature as
// displacement and shading), its rim and a handle on the right.
func drawMug(x, y, px float64) sample {
	const cx, rx, top, bottom, rimRY = 465, 205, 320, 710, 40
	bodySD := math.Max(math.Abs(x-cx)-rx, math.Max(top-y, math.Min(y-bottom, ellipseSD(x, y, cx, bottom, rx, rimRY))))
	bodySD = math.Min(bodySD, ellipseSD(x, y, cx, top, rx, rimRY))
	handleSD := math.Max(math.Abs(ellipseSD(x, y, cx+rx, 515, 115, 135))-24, cx+rx-10-x)
	mugSD := math.Min(bodySD, handleSD)
	back := scale(studio(x, y), dropShadow(math.Min(bodySD, handleSD)+6))
	back = scale(back, 1-0.25*math.Exp(-math.Max(ellipseSD(x, y, cx+40, bottom+10, rx+60, 45), 0)/20))
	in := coverage(mugSD, px)
	if in == 0 {
		return sample{base: back, shade: 1}
	}
	// cylinder: s is the position across the mug (-1..1); the light comes from the left
	s := clamp((x-cx)/rx, -1, 1)
	nz := math.Sqrt(1 - s*s)
	shade := clamp(0.55+0.4*nz+0.12*math.Exp(-(s+0.45)*(s+0.45)/0.02)-0.12*math.Max(s, 0), 0, 1)
	if handleSD < bodySD {
		shade = 0.7 + 0.2*math.Exp(-math.Abs(handleSD)/10)
	}
	// the rim: the inside of the mug shows through the top ellipse
	rimIn := coverage(ellipseSD(x, y, cx, top, rx-10, rimRY-8), px)
	ceramic := blend(grey(0.96*shade), grey(0.55+0.2*(y-top+rimRY)/(2*rimRY)), rimIn)
	body := coverage(bodySD, px) * (1 - rimIn)
	// the wrap curves with the cylinder: the print at visible position s is the print's asin(s)
	// position; the offset is in units of the template's displacement scale (12 units)
	smax := 345.0 / 2 / rx // half the quad's width over the radius
	t := math.Asin(clamp(s, -smax, smax)) / math.Asin(smax)
	dx := (t - s/smax) * 345 / 2 / 12
	return sample{base: blend(back, ceramic, in), tint: in * (1 - rimIn), mask: body, shade: shade, dispX: dx * body}
}

// drawPoster draws a framed poster hanging on a wall, seen a little from the left.
func drawPoster(x, y, px float64) sample {
	paper := []pt{{300, 140}, {700, 170}, {700, 830}, {300, 860}}
	frame := []pt{{282, 120}, {718, 152}, {718, 848}, {282, 880}}
	wall := 0.9 - 0.08*math.Hypot(x-520, y-420)/600
	wallC := [3]float64{wall, wall * 0.97, wall * 0.92}
	fd := polygonSD(frame, x, y)
	wallC = scale(wallC, 1-0.3*math.Exp(-math.Max(polygonSD(frame, x-14, y-18), 0)/16))
	inFrame := coverage(fd, px)
	pd := polygonSD(paper, x, y)
	inPaper := coverage(pd, px)
	light := clamp(1.02-0.1*(x-300)/400-0.04*(y-140)/720, 0, 1)
	wave := 0.015 * math.Sin(y/37) * math.Sin(x/53)
	paperShade := clamp(light+wave-0.12*math.Exp(math.Min(pd, 0)/6), 0, 1)
	c := blend(wallC, grey(0.13), inFrame)
	c = blend(c, grey(0.97*paperShade), inPaper)
	return sample{base: c, mask: inPaper, shade: paperShade, dispX: math.Sin(y/37) * inPaper, dispY: math.Cos(x/53) * 0.5 * inPaper}
}

// template is the product's template JSON for a side x side photo.
func (p product) template(side int) mockup.Template {
	f := float64(side) / units
	t := mockup.Template{
		Version: 1, ID: p.id, Name: p.name, PrintSpace: p.printSpace,
		Width: side, Height: side, Base: "base.png", Shadow: "shadow.png", Mask: "mask.png", Color: p.color,
		Sizes: sizesFor(side),
	}
	for i, q := range p.quad {
		t.Quad[i] = mockup.Point{X: q.x * f, Y: q.y * f}
	}
	if p.displacement > 0 {
		t.Displacement, t.DisplacementScale = "displacement.png", math.Round(p.displacement*f*100)/100
	}
	if p.tint {
		t.Tint = "tint.png"
	}
	return t
}

// sizesFor lists the mockup sizes a photo of this side can give (photos are not upscaled), or the side
// itself for a smaller photo.
func sizesFor(side int) []int {
	var s []int
	for _, v := range []int{mockup.DefaultSize, mockup.PreviewSize} {
		if v <= side {
			s = append(s, v)
		}
	}
	if len(s) == 0 {
		s = []int{side}
	}
	return s
}
