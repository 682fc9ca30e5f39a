// Package emailsend runs the e-mail campaign sends of the email-marketing area: email:send-campaign
// mails a campaign to every subscribed subscriber of its store, one delivery row per recipient,
// and email:send-test mails one copy to an address the seller names. Mail goes out through
// platform/mail (SMTP, or the local mail outbox when no SMTP server is configured).
//
// It does not decide who may send what: the bff checks the campaign, its sender and the caller
// before it queues a task.
package emailsend
