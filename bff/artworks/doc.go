// Package artworks is the seller's artworks page (docs/uploads.md, "Artworks"): the seller's uploads
// other than cliparts, filed in folders (package folders), searched by name, each with the campaigns
// that use it; and deletion, refused while anything uses the artwork (a campaign, an order, a bulk
// record still to be made), with a message naming the campaigns.
//
// Uploading stays package uploads'; this package reads no pixels and never serves a file.
package artworks
