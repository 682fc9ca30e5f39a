// Package taskrun holds what the renderer's task handlers share about running a task: a Failure
// (an input that cannot be rendered as it is, recorded with its message and never retried), how a
// render error is sorted into a failure or a passing error (Classify), the priority of the queue a
// task came from (PriorityOf), and a file rendered to disk before it is stored (StoreFile).
//
// It holds no task and no rendering; the handlers (renderer/export, renderer/mockuptask,
// renderer/orderprint) do.
package taskrun
