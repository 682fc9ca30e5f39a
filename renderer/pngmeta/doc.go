// Package pngmeta removes text metadata from PNG files as a stream.
//
// Sellers upload print artwork exported from design tools that embed
// megabytes of XMP (in iTXt chunks) and other text metadata. Strip copies a
// PNG from a reader to a writer, dropping the tEXt, zTXt and iTXt chunks and
// keeping every other chunk byte for byte, while checking the file's
// structure: the signature, chunk lengths and types, every CRC, IHDR first,
// no IDAT before IHDR, IEND last with nothing after it. Heap memory use is a
// fixed buffer whatever the file size, and the work is essentially a copy with
// hardware-accelerated CRC-32, so stripping a print-size file takes
// milliseconds. A regular file is mapped read-only instead of read, which
// spares the kernel's copy of it into that buffer; the checks are the same.
//
// StripForUpload applies the upload rule (docs/uploads.md): a PNG wider than
// 1500 px, or whose width cannot be read, is stripped; any other file passes
// through unchanged.
//
// This package does not decode pixels, does not validate the compressed
// image data inside IDAT beyond its CRC, and does not remove non-text
// metadata such as eXIf, iCCP or pHYs: colour profiles and resolution are
// part of the print file.
package pngmeta
