package outlines

import (
	"math"
	"testing"
)

func TestForReachesPastThePrintAreaOnEverySide(t *testing.T) {
	const w, h = 4500, 5400
	o, ok := For("tshirt", "front", w, h)
	if !ok {
		t.Fatal("a T-shirt's front has no outline")
	}
	b := o.Bounds
	if b.X >= 0 || b.Y >= 0 || b.X+b.Width <= w || b.Y+b.Height <= h {
		t.Errorf("bounds %+v do not reach past the %dx%d print area on every side", b, w, h)
	}
	// The shirt is symmetric about the print area's centre line.
	if centre := float64(b.X) + float64(b.Width)/2; math.Abs(centre-w/2) > 1 {
		t.Errorf("the outline's centre is at x %.1f, the print area's at %d", centre, w/2)
	}
	// The body, then the collar; every shape closed over x, y pairs, inside the bounds.
	if len(o.Shapes) != 2 {
		t.Fatalf("%d shapes, want the body and the collar", len(o.Shapes))
	}
	for i, shape := range o.Shapes {
		if len(shape) < 6 || len(shape)%2 != 0 {
			t.Errorf("shape %d has %d numbers: want x, y pairs of at least a triangle", i, len(shape))
		}
		for j := 0; j+1 < len(shape); j += 2 {
			if x, y := shape[j], shape[j+1]; x < b.X || x > b.X+b.Width || y < b.Y || y > b.Y+b.Height {
				t.Errorf("shape %d point (%d, %d) outside the bounds %+v", i, x, y, b)
			}
		}
	}
}

func TestForFollowsThePrintSpaceSize(t *testing.T) {
	one, _ := For("hoodie", "front", 4500, 5400)
	two, _ := For("hoodie", "front", 9000, 10800)
	if d := two.Bounds.Width - 2*one.Bounds.Width; d < -2 || d > 2 {
		t.Errorf("twice the pixels: width %d, want about %d", two.Bounds.Width, 2*one.Bounds.Width)
	}
	if d := two.Bounds.Height - 2*one.Bounds.Height; d < -2 || d > 2 {
		t.Errorf("twice the pixels: height %d, want about %d", two.Bounds.Height, 2*one.Bounds.Height)
	}
}

// The print area is where the photo's area maps: its corners land on the print space's corners.
func TestForPlacesThePrintAreaOnTheProduct(t *testing.T) {
	o, _ := For("poster", "front", 5400, 7200)
	frame := o.Shapes[0]
	// The frame is a band around the sheet: 30 units of 400 wide and of 720 high.
	want := []int{-405, -300, 5805, -300, 5805, 7500, -405, 7500}
	for i := range want {
		if frame[i] != want[i] {
			t.Fatalf("poster frame %v, want %v", frame, want)
		}
	}
}

func TestForKnowsOnlyProductsWithAShape(t *testing.T) {
	for _, c := range []struct{ productType, space string }{
		{"mug", "wrap"}, {"tshirt", "sleeve"}, {"socks", "front"},
	} {
		if _, ok := For(c.productType, c.space, 1000, 1000); ok {
			t.Errorf("%s %s has an outline", c.productType, c.space)
		}
	}
	if _, ok := For("tshirt", "front", 0, 5400); ok {
		t.Error("an empty print space has an outline")
	}
	for _, c := range []struct{ productType, space string }{
		{"tshirt", "back"}, {"hoodie", "back"}, {"aop_shirt", "front"}, {"aop_shirt", "back"},
	} {
		if _, ok := For(c.productType, c.space, 4500, 5400); !ok {
			t.Errorf("%s %s has no outline", c.productType, c.space)
		}
	}
}
