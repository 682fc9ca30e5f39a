// Package bulk is the server side of bulk campaigns (docs/bulk.md): the bulk:record task that turns one pending bulk record (a template campaign and a JSON
// text array of {new_url, print_space}) into a new campaign, and the reconcile loop that completes
// a record once its print files are stored.
//
// The task runs these steps: LOAD_PENDING_RECORD (the record, queued for this attempt, of an
// account that is not a designer's), PRE_LOAD_DESIGN_MOCKUP (the record checks in their order
// with their messages, the template campaign, the artworks' sizes from the uploads table),
// APPLY_DESIGN (a copy of the template campaign's products and designs, each design's artwork
// replaced by new_url: the placement is kept when the aspect ratio matches within 0.005, otherwise
// the artwork is fitted to the old box), then APPLY_DESIGN_SUCCESS (the campaign, its designs at
// revision 1 with export pending and one render:export per design on the renderer's bulk queue,
// all in one transaction through the outbox; the record becomes processing) or INVALID_DESIGN
// (the record fails with the check's message). The record's status is re-read between steps, so a
// stop takes effect at the next step; the save locks the record and re-checks it, so a record is
// applied once however often the task runs. Transient failures return an error and Asynq retries
// with its backoff; the last retry fails the record.
//
// The Reconciler marks processing records completed once every export of their campaign is done,
// writing the design records as results (once), or failed when an export failed.
//
// The background bulk-campaign job is bulk:campaign: the
// Scheduler finds pending bulk_campaign_jobs every PRESSROOM_BULK_SCHEDULE_INTERVAL and queues
// them through the outbox; the CampaignHandler makes each job's campaign from its origin campaign
// with the job's new_url as every design's artwork, named prefix + campaign_name + suffix, and
// writes the bulk log ('Campaign not found', 'Original campaign has no design', 'Missing print
// spaces', 'Cannot load designs', or 'Campaign created').
//
// It serves no HTTP and imports nothing of bff/; the bff creates records and queues this task
// with tasks.NewBulkRecordJob. The renderer queues the flat mockups of each print file it makes
// (renderer/mockuptask); the Reconciler waits for them too.
package bulk
