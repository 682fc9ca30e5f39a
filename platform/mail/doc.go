// Package mail sends the bff's e-mail: through an SMTP server when PRESSROOM_SMTP_HOST is set,
// otherwise into the local mail_outbox table, where an admin reads the messages in the UI, so every
// flow that sends a link (password reset, e-mail verification, team invitations) works offline.
// It knows nothing of what the messages say.
package mail
