// Package tasks is the contract of the worker's tasks: for each task its Asynq type, its payload,
// the constructor that sets queue, timeout, retries and task id, and the status values its rows move
// through. The bff and the storefront queue worker work and read its results through this package
// alone; the handlers (worker/bulk, worker/emailsend, worker/emailsync) import it. It also owns the
// account's campaign limit check (UnderCampaignLimit), which the editor, the bff's bulk calls and
// the worker's bulk tasks share, and the asking for a social feed's build (QueueFeedBuild), which the
// bff's feed screens and the worker's watch for catalogue changes share.
//
// It imports no handler and nothing of the renderer's pixel work; platform/archtest holds that.
// Task type strings and payload JSON are a wire format: tasks already queued must keep running
// after an upgrade, so they do not change.
package tasks
