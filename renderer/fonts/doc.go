// Package fonts holds the font files Pressroom ships and the rule that reads a font file.
//
// The renderer's default font, Roboto Regular, is inside the binary, so that a print export never
// downloads anything at run time and every machine renders text with the same outlines.
// Roboto-Regular.ttf is the unhinted TrueType build from Debian's fonts-roboto-unhinted package
// (upstream github.com/google/roboto, 2017-08-02), Copyright 2015 Google Inc., licensed under the Apache
// License 2.0 (LICENSE-Roboto.txt). Unhinted outlines are what a print renderer wants: hinting distorts
// shapes to a pixel grid that a 300 DPI print does not have.
//
// The platform fonts (platform/, listed by PlatformFonts) are the regular weights of well-known open
// families, taken from Debian packages with their copyright files beside them: DejaVu Sans
// (fonts-dejavu-core, Bitstream Vera licence), Liberation Sans and Liberation Serif (fonts-liberation2,
// SIL OFL 1.1), Noto Sans and Noto Serif (fonts-noto-core, SIL OFL 1.1). Their keys (fontUrl) start with PlatformPrefix and resolve to the
// embedded files.
//
// Read checks an uploaded font file (TrueType, OpenType, WOFF or WOFF2) and answers its names, weight and
// style and the TrueType or OpenType bytes that are stored; docs/fonts.md describes the rules. The
// package links only x/image's sfnt parser and a brotli decoder (WOFF2), no image codec, so the bff may
// validate uploads with it.
//
// Loading fonts named by a document (fontUrl) and the fallback rule live in renderer/raster.
package fonts
