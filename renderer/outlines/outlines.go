package outlines

import "math"

// Units is the side of the product photo every shape is written in, whatever its pixel size.
const Units = 1000.0

// Point is a point of a photo, in units.
type Point struct{ X, Y float64 }

// Ellipse is an axis-aligned ellipse about (CX, CY) with radii RX and RY, in units.
type Ellipse struct{ CX, CY, RX, RY float64 }

// Rect is the rectangle from (X0, Y0) to (X1, Y1), in units.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// The shapes of the products, shared by the demo mockups and the editor's outlines. Read them; never
// change them.
var (
	// Shirt is the body of a short-sleeved T-shirt (also the all-over-print shirt), symmetric about x = 500.
	Shirt = mirror([]Point{{430, 150}, {300, 185}, {165, 345}, {238, 405}, {312, 345}, {318, 880}})
	// Hoodie is the body of a long-sleeved hoodie; its hood is Hood.
	Hoodie = mirror([]Point{{420, 185}, {290, 215}, {200, 420}, {150, 800}, {230, 815}, {300, 470}, {302, 890}})
	// CollarFront and CollarBack are a shirt's collar seen from the front and from the back.
	CollarFront = Ellipse{500, 150, 72, 48}
	CollarBack  = Ellipse{500, 138, 72, 16}
	// Hood is a hoodie's hood, and HoodOpening the opening of it seen from the front.
	Hood        = Ellipse{500, 165, 120, 95}
	HoodOpening = Ellipse{500, 190, 70, 60}
	// PosterFrame is the frame around a poster seen straight on; the print is PosterSheet.
	PosterFrame = Rect{270, 110, 730, 890}
)

// The print areas on the photos.
var (
	ShirtFront   = Rect{350, 260, 650, 620}
	ShirtBack    = Rect{350, 225, 650, 585}
	HoodieFront  = Rect{360, 300, 640, 636}
	AllOverPrint = Rect{160, 140, 840, 890}
	PosterSheet  = Rect{300, 140, 700, 860}
)

// mirror completes a left half outline (top centre to bottom centre) with its mirror image about x = 500.
func mirror(left []Point) []Point {
	out := append([]Point(nil), left...)
	for i := len(left) - 1; i >= 0; i-- {
		out = append(out, Point{Units - left[i].X, left[i].Y})
	}
	return out
}

// Polygon is the ellipse as n points, counterclockwise on screen from its rightmost point.
func (e Ellipse) Polygon(n int) []Point {
	out := make([]Point, n)
	for i := range out {
		sin, cos := math.Sincos(2 * math.Pi * float64(i) / float64(n))
		out[i] = Point{e.CX + e.RX*cos, e.CY + e.RY*sin}
	}
	return out
}

// Polygon is the rectangle's corners, clockwise on screen from the top left.
func (r Rect) Polygon() []Point {
	return []Point{{r.X0, r.Y0}, {r.X1, r.Y0}, {r.X1, r.Y1}, {r.X0, r.Y1}}
}

// ellipsePoints is how many points an ellipse of an outline has.
const ellipsePoints = 32

// view is a product seen from one print space: its shapes, body first, and the print area on it.
type view struct {
	shapes [][]Point
	area   Rect
}

// views are the products of each product type (the catalogue's product_type) by print space name. A mug's
// wrap goes all around it, so it has none.
var views = map[string]map[string]view{
	"tshirt": {
		"front": {[][]Point{Shirt, CollarFront.Polygon(ellipsePoints)}, ShirtFront},
		"back":  {[][]Point{Shirt, CollarBack.Polygon(ellipsePoints)}, ShirtBack},
	},
	"hoodie": {
		"front": {[][]Point{Hoodie, Hood.Polygon(ellipsePoints), HoodOpening.Polygon(ellipsePoints)}, HoodieFront},
		"back":  {[][]Point{Hoodie, Hood.Polygon(ellipsePoints)}, HoodieFront},
	},
	"aop_shirt": {
		"front": {[][]Point{Shirt, CollarFront.Polygon(ellipsePoints)}, AllOverPrint},
		"back":  {[][]Point{Shirt, CollarBack.Polygon(ellipsePoints)}, AllOverPrint},
	},
	"poster": {
		"front": {[][]Point{PosterFrame.Polygon()}, PosterSheet},
	},
}

// Outline is a product around one of its print spaces, in that print space's pixels: the print area is
// 0..width x 0..height and the product reaches past it, so most points lie outside.
type Outline struct {
	// Shapes are closed shapes, body first, each as x, y pairs.
	Shapes [][]int `json:"shapes"`
	// Bounds holds every shape and the print area.
	Bounds Box `json:"bounds"`
}

// Box is a rectangle in print pixels.
type Box struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// For is the outline of the product of type productType around its print space named printSpace,
// width x height print pixels; ok is false for a product or print space without one, or an empty size.
func For(productType, printSpace string, width, height int) (o Outline, ok bool) {
	v, ok := views[productType][printSpace]
	if !ok || width <= 0 || height <= 0 {
		return Outline{}, false
	}
	sx := float64(width) / (v.area.X1 - v.area.X0)
	sy := float64(height) / (v.area.Y1 - v.area.Y0)
	minX, minY, maxX, maxY := 0, 0, width, height
	o.Shapes = make([][]int, len(v.shapes))
	for i, shape := range v.shapes {
		flat := make([]int, 0, 2*len(shape))
		for _, p := range shape {
			x, y := int(math.Round((p.X-v.area.X0)*sx)), int(math.Round((p.Y-v.area.Y0)*sy))
			minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
			flat = append(flat, x, y)
		}
		o.Shapes[i] = flat
	}
	o.Bounds = Box{X: minX, Y: minY, Width: maxX - minX, Height: maxY - minY}
	return o, true
}
