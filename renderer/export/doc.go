// Package export is the render:export task: it turns the saved design document of one product print
// space (a campaign_designs row) into the print file, a PNG at the print size declaring the document's
// DPI in a pHYs chunk, stored at print/{campaignId}/{designId}_r{revision}.png, a private key handed out only as a signed URL
// (docs/editor.md, "Saving and the print files").
//
// The bff saves a changed document with revision+1 and export_status pending and adds this task to
// the outbox in the same transaction. The handler renders with renderer/raster, its sources read from
// the blob store by key (an http(s) source is refused: the renderer fetches nothing from the network),
// and records the result for that revision only: a task for a revision the design has moved past does
// nothing, and a revision already done or failed is not rendered again, so a task delivered twice
// writes one result. A document that cannot be rendered (missing or damaged artwork, an invalid
// document) is marked failed with the reason and not retried; storage and database failures are
// retried, and the last retry marks the design failed rather than leaving it rendering.
// Recording a print file also queues its flat mockups (renderer/mockuptask.Queue) in the same
// transaction, on the priority of the queue the export came from. Beside the print file it stores the
// mockup source the mockups are placed from and, for a design with custom objects, the base source:
// the design without them, at most 1500 px wide, for the base mockups (docs/mockups.md).
//
// The task's type, payload, constructor, statuses and keys are in renderer/tasks. It does not
// validate who may use an artwork or decide when to export; the bff does.
package export
