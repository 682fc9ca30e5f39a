// Package sanitize is the render:sanitize task: the server-side check every upload passes before
// anything uses it (docs/uploads.md).
//
// The bff records an upload as pending in the uploads table and adds this task to the outbox in
// the same transaction. The handler reads the blob, sniffs its real type (PNG, JPEG or WebP; the
// file name is never trusted), checks the header's dimensions against the pixel limit before
// anything is decoded, applies the upload rule for PNGs (text and XMP chunks removed when the image is
// wider than 1500 px or its width is unknown; everything else kept byte for byte) and writes the
// result back under the same key, then records width, height, declared DPI, byte size and the
// outcome: ready, or rejected with a message the user reads.
//
// An upload with a source (an SVG clipart: the bff stored its clean file and recorded its key) is
// first drawn from it into a PNG at print size (SVGLongSide, by svgraster, after svgdoc has read the
// file again), then checked like any other; an SVG refused then is rejected with svgdoc's message.
//
// It reads every pixel row once, so that a damaged file is refused here, but never holds a PNG's
// pixels: PNGs are checked row by row (pngdec.Check); JPEG and WebP are decoded within the
// renderer's memory budget (package membudget). It does not decide who may upload what; the bff does. The browser strips PNGs before upload too; this step never trusts
// that it did.
package sanitize
