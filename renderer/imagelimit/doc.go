// Package imagelimit decodes untrusted images within configured limits.
//
// Every image the renderer reads (uploads, artwork referenced by a design,
// mockup templates) comes from outside. A 50-byte PNG can declare
// 100000x100000 pixels and make a naive decoder allocate 40 GB; a huge file
// can hold a decoder's attention for minutes. Decode and DecodeConfig read
// the header first, refuse images with more pixels than Config.MaxPixels
// before any pixel buffer exists, and stop reading past Config.MaxBytes.
//
// Only PNG, JPEG and WebP are accepted, whatever other decoders the binary
// happens to register with the image package: the format is sniffed here and
// the decoder called directly.
//
// This package does not resize, convert colour or strip metadata, and the
// pixel limit bounds memory only together with the bytes per pixel of the
// decoded type (8 for 16-bit PNGs); callers that must bound memory tighter
// lower MaxPixels.
package imagelimit
