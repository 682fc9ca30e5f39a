// Package service assembles the renderer as a long-running process: an Asynq server on the
// renderer's queues and a small HTTP server of its own (health now; the 3D mockup page the Chrome
// pool loads later). The rendering itself lives in the pure packages beside it.
package service
