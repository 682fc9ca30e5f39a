// Package fonts is the seller's fonts screen and the font files the editor and the storefront load
// (docs/fonts.md): GET /api/fonts lists Roboto and the platform fonts to anyone, GET /api/fonts/{file}
// serves a font file by its key, and under /api/seller/fonts a seller lists the platform fonts with
// their own, uploads a TrueType, OpenType, WOFF or WOFF2 file (read and refused by renderer/fonts.Read, stored
// decoded as the TrueType or OpenType file the renderer reads) and deletes one.
//
// A deleted font leaves the picker at once; its file stays while any campaign design or design order
// names it, so those keep printing, and Sweep removes it once nothing does (after Config.RemoveAfter).
// The package does not draw or render: the renderer reads the same stored file by its key.
package fonts
