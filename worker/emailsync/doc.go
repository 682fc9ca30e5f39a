// Package emailsync is the email:sync-profiles task: it copies a store's subscribed e-mail
// subscribers to the store's Klaviyo list as profiles, one bulk import job per page, recording the
// run's progress and cursor after each page so a restarted task resumes where it stopped.
//
// The task's type, payload, constructor and run statuses are in worker/tasks; the bff records the
// run a seller asks for, with its task, and the worker processes it. The Klaviyo configuration,
// the Sealer of private keys and the HTTP calls are in platform/klaviyo.
package emailsync
