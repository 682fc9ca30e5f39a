// Package webhooks delivers the events of event_outbox to sellers' webhook endpoints and chat
// channels: a loop in the worker fans new events out into deliveries (commerce/webhooks) and sends
// the due ones, each through a client that checks every address it dials (platform/netguard),
// follows no redirect, gives up after a timeout and reads at most a kilobyte of any answer.
// Behaviour is described in docs/webhooks.md.
package webhooks
