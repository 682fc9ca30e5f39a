// Package tracking records utm_campaign visits: a click when a
// browser arrives with a utm_campaign query (POST /api/utm-campaign/track, anonymous) and a submit
// when the signed-in seller's visit is credited to the campaign (POST /api/seller/utm-campaign/track,
// answering data.success). Each carries the client info the browser gathers (browser,
// device, os, user agent, visitor id, tab session id); the IP is the one the bff sees.
//
// Both calls are idempotent: a click counts once per visitor and campaign, a submit once per seller
// and campaign, so the UI may resend a submit until it succeeds. Each call's body is capped
// (MaxBodyBytes) and counted, per client address for a click and per account for a submit, against
// MaxEventsPerHour, so no caller can make it store rows without bound. The package keeps the events;
// it does not report on them.
package tracking
