// Package fonts ships the renderer's default font, Roboto Regular, inside the binary, so that a print
// export never downloads anything at run time and every machine renders text with the same outlines.
//
// Roboto-Regular.ttf is the unhinted TrueType build from Debian's fonts-roboto-unhinted package
// (upstream github.com/google/roboto, 2017-08-02), Copyright 2015 Google Inc., licensed under the Apache
// License 2.0 (LICENSE-Roboto.txt). Unhinted outlines are what a print renderer wants: hinting distorts
// shapes to a pixel grid that a 300 DPI print does not have.
//
// This package holds font data only; loading fonts named by a document (fontUrl) and the fallback rule live
// in renderer/raster.
package fonts
