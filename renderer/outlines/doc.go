// Package outlines holds the shapes of the catalogue's products and where each print space sits on
// them, in the units of a 1000 x 1000 product photo: the one owner of the silhouettes the demo
// mockups are drawn from (renderer/mockup/demo) and of the product outline the seller's editor draws
// around a print area when zoomed out to the product (For, which the bff serves with a campaign's
// products; docs/editor.md#the-canvas).
//
// It is data and arithmetic only: no image, no codec, nothing of the renderer's pixel work, so the bff
// links it (platform/archtest). It is not the mockups' geometry (a template's quad, masks and maps
// are the template's own) nor what is printed: an outline is never part of a design.
package outlines
