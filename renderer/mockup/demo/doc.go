// Package demo draws the demo flat mockup templates of the products the catalogue seeds (T-shirt front
// and back, hoodie front, mug wrap, poster, all-over-print shirt front) with code, so that no photo is
// downloaded or committed: a studio backdrop with a drop shadow, the product in white with soft shading
// and folds, and the template's maps (tint, mask, shading, displacement) drawn from the same shapes.
//
// Everything is deterministic: the same id and photo size give the same bytes. The gen command (go run
// ./renderer/mockup/gen -out DIR) writes them to DIR/<id>/template.json plus images; tests draw them small
// in memory. The pictures are plausible, not photographic; real templates replace them per product.
package demo
