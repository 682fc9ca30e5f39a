// Package orderprint makes the print files of design-order items ready for review: render:order-export
// renders an item's design document into its print file, and render:tiles measures a print file (size,
// declared DPI, leftover metadata) and cuts it into the deep-zoom pyramid the review screen draws, so a
// 13500 px file opens without the browser loading it whole.
//
// Both tasks carry an item id and the revision they work for; an item moved on to a later revision
// (re-rendered, replaced) ignores a task for an earlier one, and a revision already done is left alone.
// It is not the campaign editor's export (renderer/export), whose print files belong to designs.
package orderprint
