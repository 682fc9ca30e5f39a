// Package outbox makes "change the database and start background work" one atomic step. A feature
// adds its queue.Job to the task_outbox table in the same transaction as its change; after commit it
// asks the Relay to dispatch those rows at once, and the worker's Relay loop sends whatever is
// left (the process died between commit and enqueue, or Redis was away). Rows are locked while
// sent, so two relays never send the same row at the same time; a row sent twice after a crash is
// harmless because every task handler is idempotent and task ids are deterministic where it matters.
package outbox
