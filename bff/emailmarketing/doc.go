// Package emailmarketing answers the email-marketing calls (docs/email-marketing.md): a
// store's Klaviyo connection (the private key sealed at rest, checked against Klaviyo before it is
// stored) and the profile sync it starts, the senders on the account's store domains, and the
// store's subscribers (list, CSV import, unsubscribe).
//
// Every route needs the "email marketing" tag plus update_campaign. The sync itself runs
// in the worker (worker/emailsync); this package only records the run and its task.
package emailmarketing
