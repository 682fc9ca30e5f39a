// Package dpi computes the print resolution of placed artwork and reads the
// resolution image files declare.
//
// A design places each image at a size in print-file pixels; the image's
// effective DPI is how many of its own pixels land on an inch of print:
// docDPI * sourcePixels / placedPixels, the lower of the two axes. The
// document's quality follows the DPI quality rule (docs/editor.md): "good" when the lowest effective DPI
// is at least the midpoint of the document DPI and its minimum DPI, "low"
// below the minimum, "normal" between. ScaleCap is the editor's limit on
// enlarging an image (DPI / minDPI).
//
// Declared reads the density a PNG (pHYs) or JPEG (JFIF APP0, EXIF
// XResolution/YResolution) states. That number is informational: the
// effective DPI, not the declared one, decides print quality.
//
// This package does not depend on the design document: callers map their
// objects to Placement. It decodes no pixels.
package dpi
