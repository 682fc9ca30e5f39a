// Package system is the bff's operator surface: liveness (/healthz), readiness (/readyz: Postgres
// and Redis reachable), the system:ping round trip through the queue, and the Asynq monitoring UI
// at /admin/queues. Everything but the health checks is for admins only.
package system
