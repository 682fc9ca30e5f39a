// Package folders is the one folder model of the seller's files: a flat list of named folders per
// seller for each kind of file, artworks (uploads, docs/uploads.md) and cliparts (docs/cliparts.md).
// It answers the folder screens (list with counts, create, rename, delete) and Owned, the check the
// artworks and cliparts packages make before they file something in a folder. Deleting a folder
// leaves its files outside any folder; nothing in a folder is ever deleted with it.
package folders
