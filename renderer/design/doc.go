// Package design is the design document: the one versioned JSON document per product print space that the
// Konva editor writes and the renderer reads (shape in DESIGN.md, schema in schema/design.schema.json).
//
// Parse is the only way in. It is strict on purpose, because the document crosses a trust boundary (the
// browser) and drives expensive work (a print export allocates the whole canvas): unknown and duplicate
// fields, wrong JSON types, non-integral integers, values outside sane bounds, unknown enumeration values,
// more than MaxTexts text objects, text longer than its maxLength and malformed sources are all refused.
// Every problem is reported at once in a *ValidationError, each naming the field as a path such as
// "objects[1].textWidth", so the bff can return them in its errors[] envelope and the editor can point at
// the field.
//
// The JSON schema in schema/design.schema.json describes the same rules for other languages; the tests
// run every fixture under schema/testdata/designs through Parse so the two cannot drift silently. The one
// rule a JSON schema cannot state is the rejection of duplicate keys inside one JSON object.
//
// This package does not render, fetch sources or measure text; see renderer/raster for that.
package design
