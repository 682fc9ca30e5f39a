package mockup

import (
	"image"
	"runtime"
)

// Source is the print file as mockups need it, for the export to store beside the print file: print
// halved with placeStep's 2x2 box filter while both its sides are at least twice DefaultSize. A mockup
// of Source(print) is pixel for pixel the mockup of print whenever no side of the template's print area
// is longer than DefaultSize, which holds for every mockup at DefaultSize or smaller (placeStep would
// halve print as often anyway), while a 4500x5400 print file comes down to 2250x2700: a quarter of the
// pixels to decode for every mockup of it. The result is print itself when it is already small enough.
func Source(print image.Image) *image.RGBA {
	src := premultiplied(print)
	for min(src.Rect.Dx(), src.Rect.Dy()) >= 2*DefaultSize {
		src = halve(src, runtime.GOMAXPROCS(0))
	}
	return src
}
