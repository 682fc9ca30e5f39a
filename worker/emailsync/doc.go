// Package emailsync is the email:sync-profiles task: it copies a store's subscribed e-mail
// subscribers to the store's Klaviyo list as profiles, one bulk import job per page, recording the
// run's progress and cursor after each page so a restarted task resumes where it stopped.
//
// It also holds what the bff and the worker share about it: the task constructor, the
// configuration (Klaviyo's base URL, the secret that seals private keys) and the Sealer. The
// HTTP calls themselves are in the klaviyo subpackage.
package emailsync
