// Package cli is the renderer's command-line face: strip, dpi, export and mockup, run by cmd/renderer
// (which owns main and the service) through Run.
//
//	renderer strip IN.png OUT.png                      remove text metadata (tEXt, zTXt, iTXt) from a PNG
//	renderer dpi DESIGN.json                           print the JSON DPI report of a design
//	renderer export DESIGN.json OUT.png [--width N] [--level L]   render the print file (full size by default)
//	renderer mockup DESIGN.json --template T.json OUT.png|OUT.webp [--color #rrggbb] [--size N]
//	                                                   place the design on a flat mockup template
//
// --width takes a number of pixels or one of the names "full" (the print size, the default), "export" (the
// design export size, raster.ExportWidth) and "preview" (1920 on the long side). --level sets the PNG deflate level
// (1 fastest .. 9 smallest; 0, the default, leaves the choice to renderer/pngenc). With
// PRESSROOM_RENDER_TRACE=1, export and mockup print each pipeline step's duration to stderr.
//
// mockup renders the design at its export width (renderer/raster), then places that print file on the
// template (renderer/mockup) in the product colour --color (default: the template's) at --size, the
// output's long side: pixels (one of the template's sizes), "default" (2000) or "preview" (500). The
// template's images resolve against the template file's folder; the format follows OUT's extension.
//
// Sources in the design resolve against the design file's folder: paths starting with "./" or "../", and
// blob keys too (the folder stands in for a local blob store, so "u/7/art.png" is DIR/u/7/art.png). URLs are
// refused: the command line does not fetch from the network.
//
// Outputs are written to a temporary file in the output's folder and renamed into place on success, so a
// failed run never leaves a half-written file under the output name. Every failure is returned as one error
// whose text is a single line; the caller prints it and exits non-zero.
//
// This package holds no rendering logic; it parses arguments and calls renderer/design, renderer/raster,
// renderer/pngmeta and renderer/mockup.
package cli
