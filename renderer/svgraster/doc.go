// Package svgraster draws a clipart's SVG (a doc of package svgdoc, which decided what may be drawn)
// into pixels at print size: the renderer's step that turns an SVG clipart into the PNG designs use
// (docs/cliparts.md).
//
// Shapes are filled and stroked by github.com/srwiley/rasterx (BSD-3), the rasterizer of the oksvg
// family, with golang.org/x/image/vector underneath. This package does the rest itself, in float64
// until the last step: the transforms, arcs (as cubic Béziers), stroke widths scaled with their
// transform, gradients, and the even-odd fill rule (vector only fills by the non-zero rule, so each
// subpath of an even-odd fill is drawn alone and combined by parity). Each shape costs the area it
// covers, not the whole picture.
//
// Drawing is bounded: shapes reaching far outside the picture, or so many that their areas add up to
// more than WorkLimit pictures, are refused with a message (Refusal), and the context is checked
// between shapes. A panic while drawing is answered as a refusal, never passed on.
package svgraster
