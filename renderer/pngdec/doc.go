// Package pngdec decodes PNG images on two goroutines and hands out rows as
// soon as they are final.
//
// image/png inflates, unfilters and converts every row on the caller's
// goroutine and returns nothing until the last chunk is read: a 4500x5400
// RGBA artwork takes about 440 ms on one core while the other waits. Start
// instead reads the header, allocates the image and returns at once; one
// goroutine inflates the IDAT stream (github.com/klauspost/compress/zlib)
// into batches of filtered rows, a second unfilters them straight into the
// image's pixels, and Decoding.WaitRows lets a consumer (the renderer's
// resampler) work on the top of the image while the bottom is still being
// decoded.
//
// The result is exactly image/png's: the same image type (*image.NRGBA,
// *image.RGBA, *image.Gray or *image.Paletted, palette included), the same
// pixels, and an error wherever image/png returns one (chunk order, CRCs,
// zlib checksum, too much or too little pixel data, trailing chunks up to
// IEND); FuzzDecode holds that. Only the common 8-bit non-interlaced colour
// types are decoded here; other bit depths and interlaced images go to
// image/png, whole, so Start returns them finished.
//
// This package does not check sizes against limits (renderer/imagelimit
// does, before calling it) and does not decode metadata.
package pngdec
