// Package tasks is the contract of the renderer's tasks: for each task its Asynq type, its payload,
// the constructor that sets queue, timeout, retries and task id, the status values its rows move
// through and the blob keys it writes. The bff, the worker and the storefront queue renderer work
// and read its results through this package alone.
//
// It imports no handler, no image codec and no Chrome driver, so that linking it costs a binary
// nothing of the render farm; platform/archtest holds that. The handlers (renderer/export,
// renderer/mockuptask, renderer/orderprint, renderer/sanitize, renderer/variant) import it.
// Task type strings and payload JSON are a wire format: tasks already queued must keep running
// after an upgrade, so they do not change.
package tasks
