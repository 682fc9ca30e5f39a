// Package webhooks is a seller's webhook endpoints and notification channels (custom, Slack,
// Discord, Microsoft Teams, Telegram) and the rules of their deliveries: which events reach which
// endpoint, the signature of custom deliveries, the message each channel gets, the retry schedule,
// and the stores of endpoints, deliveries and attempts. The bff edits endpoints and shows the log;
// worker/webhooks fans events out and sends them. Behaviour is described in docs/webhooks.md.
package webhooks
