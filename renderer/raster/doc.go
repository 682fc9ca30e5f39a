// Package raster renders a design document (renderer/design) into a print file: an RGBA PNG at the print
// size or a smaller export or preview size, with a pHYs chunk carrying the document's DPI.
//
// A render is a pipeline of steps ([]step, one file and one test each) over one render state, the context
// checked between steps: prepare the canvas, then one step per object in paint order (draw an image, draw a
// text), then the DPI assessment, then (for Export) the PNG encoding. Everything is drawn straight into one
// premultiplied RGBA canvas at the output size; images are resampled row by row into it rather than into a
// scaled copy, so the peak memory of a render is the canvas plus what it holds of the sources (a
// 13500x16200 all-over-print export of the 4500x5400 reference design peaks at about 850 MB RSS). An
// upright 8-bit RGB or RGBA PNG is not held whole (unless it is shrunk so far that the rows would be
// most of it): it is read top down (imagelimit.DecodeRows) into a ring of the rows the resampler still
// needs, which resamples each band of output rows as soon as its source rows are in, on the other cores
// (drawUprightRows), so a full-page 13500x16200 artwork costs the canvas and a few tens of MB instead of
// the canvas and another 875 MB. Other upright images are resampled
// while they decode (imagelimit.DecodeStream, renderer/pngdec), decoded whole. Either way decoding and
// resampling share the cores instead of taking turns, and the whole file is still checked, to IEND,
// before the step succeeds.
//
// # Layout rules (the editor must match these)
//
// Coordinates are print-file pixels; the output is the print space scaled by Width / printSpace.width.
//
// Placement and rotation: (x, y) is the top-left corner of the object's unrotated box and the pivot of its
// rotation, which is clockwise in degrees. This is exactly a Konva node with offset 0: the editor stores
// node.x(), node.y() and node.rotation() as they are (the Transformer's "rotate about the centre" is
// already expressed by the x and y it writes). Objects are clipped to the print space and paint in order.
//
// Images are scaled to width x height with a Catmull-Rom (bicubic) filter widened for downscaling (so a big
// downscale averages rather than aliases), in premultiplied alpha; box edges that fall between output pixels
// are anti-aliased. Catmull-Rom rather than Lanczos-3: on the reference 4500x5400 -> 4000x4800 scale it is
// about 20% cheaper (fewer taps) and looks the same at print resolution (BenchmarkResampleKernels, beside
// x/image/draw's Catmull-Rom);
// the result matches golang.org/x/image/draw's Catmull-Rom within a mean difference of 1/255
// (TestResampleMatchesXDraw), without a full-size intermediate copy. Resize, Fit and NRGBA offer the same
// resampler to the code that scales whole images (thumbnails, variants, mockup templates). A rotated image
// that shrinks is first scaled (into a temporary no larger than its source), then transformed about the
// pivot with x/image/draw's Catmull-Rom; one that grows (or keeps its size) is transformed straight from the
// source. When that source is an 8-bit RGB or RGBA PNG turned by less than a quarter, it is not decoded whole: its
// rows are read top down (imagelimit.DecodeRows) and the canvas is drawn in bands of rowsBand rows, each
// from the window of source rows under its kernel (drawRotatedRows), so a full-page artwork turned a few
// degrees costs the canvas plus a few hundred rows, not the canvas plus a second full-page image.
//
// Text: one line per "\n"-separated paragraph, line height 1 (fontSize), each baseline placed as Konva's
// Text does: lineTop + fontSize/2 + (ascent - descent)/2 with the font's ascent and descent. Horizontal
// alignment (textAlign left/center/right) places each line inside the box of width "width" at x. textWidth:
//
//   - fixed: the box is "width" wide and lines wrap at spaces and hyphens to fit it (a word longer than the
//     box breaks between characters), like a Konva Text with a width and wrap "word"; fontSize is kept.
//   - limited: no wrapping; when the widest line is wider than the box, the font size shrinks so that it fits
//     exactly, and the shrunken text is centred vertically in the box the nominal size would take. The box
//     never changes, whatever the customer types: the use for personalised text.
//   - flexible: no wrapping and no shrinking; the box grows with the text (Konva's width "auto"), anchored by
//     textAlign to the declared box: left grows rightwards from x, right grows leftwards from x + width, center
//     grows both ways from the box centre.
//
// convertText: uppercase and lowercase use Unicode case mapping; capitalize upper-cases the first letter of
// every space-separated word and leaves the rest as typed (CSS text-transform: capitalize).
//
// displayStyle: color paints the glyphs with fill (#rgb, #rrggbb or #rrggbbaa); transparent knocks the
// glyphs out of everything painted before (destination-out), so the product shows through the letters;
// image_background paints the glyphs with the image at backgroundUrl, scaled to cover the text box and
// centred (CSS background-size: cover), rotating with the text.
//
// Fonts: Roboto (renderer/fonts) unless the object has a fontUrl: a platform font's key answers the file
// embedded in renderer/fonts, any other fontUrl is read through the Loader and must be a TrueType or
// OpenType file. A fontUrl that fails to load, or a fontFamily other than Roboto without a
// fontUrl, falls back to Roboto, and Report.FontFallbacks says so. Characters missing from a font are drawn
// from Roboto.
//
// This package does not fetch from the network or the blob store itself: sources come through a Loader.
package raster
