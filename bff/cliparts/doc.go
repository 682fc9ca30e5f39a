// Package cliparts is the seller's clipart library (docs/cliparts.md): images in folders (package
// folders) that designs use like artworks and that personalization inputs offer to buyers.
//
// A clipart is an upload (package uploads) the seller cannot see on the artworks page: PNG and WebP
// files are stored as sent and checked by the renderer's render:sanitize like every upload; an SVG is
// read here by renderer/svgdoc (hard limits, an allow-list, refusals with their message), its clean
// copy stored as the upload's source, and the renderer draws it into the print-size PNG that the
// upload's key names. This package reads no pixels.
//
// GET /api/seller/cliparts answers a stable shape ({id, name, folder_id, key, width, height,
// thumbnail_url, ...}): key is the blob key a design's image src names. A deleted clipart leaves the
// library at once; its files stay while any campaign or order uses them, and Sweep removes them (with
// the upload) once nothing does, Config.RemoveAfter after the deletion.
package cliparts
