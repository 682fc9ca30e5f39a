// Package webhooks is the bff side of the notification settings (/settings/notification): a
// seller's webhook endpoints and chat channels (list, create, change, delete), each endpoint's
// delivery log with the tries of a delivery, a manual replay, and a test send. The rules and stores
// are commerce/webhooks'; the worker sends (worker/webhooks). Behaviour is described in
// docs/webhooks.md.
package webhooks
