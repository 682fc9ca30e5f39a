// Package variant makes the smaller WebP forms of uploaded artwork the screens load
// (preview 400x500 through full_hd 1000x1250, and
// the design widths 1500, 3000 and 4500 the editor loads as "design" and "design3x"), at WebP
// quality 90.
//
// Variants are made on first request, not on ingest: the bff serves GET /api/files/{key}?variant=
// from the blob under tasks.VariantKey(name, key) when it exists, and otherwise enqueues render:variant
// (renderer/tasks, on the renderer's interactive queue, with a task id derived from the variant and
// key so concurrent first requests from any number of bff processes queue it once; each bff also
// folds its own concurrent requests into one with singleflight) and waits for the blob to appear.
// The handler checks for the blob first, so a task delivered twice renders once more at most and
// stores the same result. A variant never changes once stored: its source key names a sanitized
// upload, whose bytes are fixed once it is ready.
//
// The names, keys and the task constructor are in renderer/tasks, which the bff imports instead of
// this package; the WebP encoder is given to NewHandler by the renderer (package webpenc).
package variant
