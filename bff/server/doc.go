// Package server builds the bff's echo instance: request ids, structured request logs, panic
// recovery, security headers, body limits, the client-address rule, the envelope error handler,
// and serving the built UI with its single-page fallback. Feature areas add their routes through
// the register function; this package knows none of them.
package server
