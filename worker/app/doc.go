// Package app assembles the worker: an Asynq server on the worker's queues (bulk records, bulk
// campaign jobs, e-mail sync, scheduled jobs, system:ping) and the outbox relay that sends tasks
// whose producers could not. It serves no HTTP.
package app
