// Package tiles cuts a print file into a deep-zoom tile pyramid, so that a reviewer opens a 13500 px
// print file at once and pans it at 100% without the browser ever holding the whole file.
//
// The pyramid follows the Deep Zoom convention: level 0 is one pixel, every level doubles the one
// before, and the last level is the image at full size; level l's image is the full one scaled by
// 2^(l-last), rounded up. Every level is cut into square tiles of TileSize pixels (the last row and
// column smaller), without overlap. Coarser levels are made from finer ones by averaging 2x2 blocks in
// premultiplied alpha, so transparent pixels never bleed a colour into their neighbours.
//
// Generate hands out tiles coarse levels first: a viewer asking for the whole picture gets it long
// before the detail is ready.
package tiles
