// Package app assembles the bff from its configuration: database, Redis, the Asynq client and the
// outbox relay, the feature services and their routes on one echo instance. cmd/bff calls it, and
// so do the tests that drive the real HTTP server against real Postgres and Redis.
package app
