// Package review is the designers' area (docs/review.md): the queue of design-order
// items whose print files wait for a check, one item with everything a designer checks (the print
// file's facts, the DPI report per object, the customer's personalization, the design document, the
// deep-zoom manifest and its tiles), and the actions on it — approve, reject with a comment (the
// seller is notified in the same transaction), replace the print file with a sanitized upload,
// re-render it from the design document — each recorded with who and when.
//
// Only designers and admins reach it. The bff never reads the print file's pixels: the renderer's
// render:order-export and render:tiles tasks (renderer/orderprint), queued through the outbox, make
// and measure every print file and its tiles; the bff streams tiles and signs the full file's URL.
package review
