// Package svgdoc reads the SVG files sellers upload as cliparts (docs/cliparts.md) and answers a clean
// copy of each, or a refusal whose message the seller reads.
//
// Reading is bounded before anything else: at most MaxBytes of UTF-8 XML, elements at most MaxDepth deep,
// at most MaxElements once the <use> references are expanded, at most MaxPoints numbers in the shapes'
// geometry, every number within ±MaxNumber. Entities never expand: a DOCTYPE that declares any (the
// "billion laughs") is refused, and encoding/xml knows no others.
//
// What may pass is an allow-list. Scripts, event handler attributes (onload and kin), <foreignObject>,
// animations, and any href or url() that points outside the file are refused with their own message;
// elements that paint what the renderer cannot draw (text, embedded bitmaps, clip paths, masks, filters,
// patterns) are refused too, naming the element, rather than printed without it. Titles, descriptions,
// metadata and the editors' own namespaces (Inkscape, Sodipodi, RDF) are dropped: they never paint.
//
// The clean copy is what the renderer draws (package svgraster): only the shape elements, groups and
// gradients, with each element's style worked out (presentation attributes, then class rules of the
// file's <style>, then its style attribute; currentColor and display:none resolved), <use> replaced by
// a copy of what it names, gradients' href chains resolved, path data and numbers rewritten plainly.
//
// The package reads text only: it links no rasterizer and no image codec, so the bff uses it to refuse
// a hostile file at once, and the renderer reads every file again before it draws one.
package svgdoc
