// Package mockuptask is the render:mockup task: it places the print file of one revision of a design
// on a flat mockup template of its product (renderer/mockup) and stores the mockup at its key,
// p/{campaignId}/design_{mockupId}_{productId}.png, with its 500 px WebP preview beside it
// (p/{campaignId}/design_{mockupId}_{productId}_preview.webp, scaled from the same pixels), recording
// both in the product's campaign_mockups row (2000 px, preview 500; docs/mockups.md). When the print
// file has a base source (its design has custom objects), it also places that on the template at
// 500 px, the base mockup (p/{campaignId}/design_{mockupId}_{productId}_base.webp, base_url), under
// which the storefront's live preview draws the buyer's own objects.
//
// The rows and their tasks are made by Queue, which renderer/export calls in the transaction that
// records a print file: one row per campaign product and applicable mockup template (the product
// template's flat templates of that print space whose type_detail equals the product's mockup_type or
// is empty), set pending for the new revision, and one task each through the outbox at the
// export's priority. A product's first mockup becomes its default until the seller picks another.
//
// The handler renders in the product's default colour and writes its result for the revision it was
// queued for only: a task whose row or design has moved on does nothing, and a revision already done
// or failed is not rendered again. The file is stored and the row updated while the row is locked, so
// a late task of an older revision can never overwrite the file of a newer one. A missing print file
// or template is recorded as failed with a message and not retried; storage and database failures are
// retried, and the last retry marks the row failed. The row keeps the message the seller reads; the
// cause goes to the task's error.
//
// The task's type, payload, constructor, statuses and keys are in renderer/tasks. The seller's retry
// of a failed mockup is the bff's (bff/campaigns): it makes the row pending again and queues the
// same task under a task id counting the retries, since Asynq keeps a failed task's id for days.
//
// 3D templates (those with a glb) are drawn by render:mockup3d through the renderer's Chrome pool
// (mockup3d.go), for the seller's saves only: Queue skips them at bulk priority. It does not decide
// which mockup is the default after the first; the bff does.
package mockuptask
