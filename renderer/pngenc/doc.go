// Package pngenc writes large RGBA PNG files using every core.
//
// Go's image/png filters and deflates a print file on one goroutine, which
// takes about two seconds for 4500x5400 pixels. Encode instead cuts the
// filtered scanlines into segments of about a megabyte and compresses them in
// parallel, pigz style: each segment is an independent raw deflate stream
// ended with a sync flush (the last one with a final block), the segments are
// concatenated into one zlib stream, and the Adler-32 of the whole stream is
// combined from the per-segment checksums. The result is one ordinary PNG
// that every decoder reads. Deflate is github.com/klauspost/compress/flate:
// level 4 for detailed segments, several times faster than compress/flate
// there at a similar ratio, and level 7 (lazy matching) for flat-colour
// segments, where the fast levels code several times larger; the filter
// type is chosen by image/png's heuristic on every 8th row and reused for
// the rows between, so files stay close to image/png's size. Output is written in order while later segments are still being
// compressed, and at most a few segments are held at once, so memory does
// not grow with the image beyond the image itself.
//
// Output is always 8-bit RGBA (colour type 6), non-premultiplied, with an
// optional pHYs chunk for the print resolution.
//
// This package is not a general PNG encoder: it writes no palette, grey or
// 16-bit images, no interlacing and no metadata besides pHYs. Use image/png
// for those.
package pngenc
