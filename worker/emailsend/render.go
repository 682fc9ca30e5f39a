package emailsend

import (
	stdmail "net/mail"
	"strings"

	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/worker/tasks"
)

// message is campaign c as mailed to the address to, whose unsubscribe link is unsubscribeURL: the
// seller's HTML with its text alternative, from the campaign's sender (as From on a verified domain,
// else by name with replies going to it).
func message(c campaign, to, subject, unsubscribeURL string) mail.Message {
	html := strings.ReplaceAll(c.BodyHTML, tasks.UnsubscribePlaceholder, unsubscribeURL)
	m := mail.Message{To: to, Subject: subject, Body: mail.PlainText(html), HTML: html}
	switch {
	case c.SenderAddress == "":
	case c.SenderVerified:
		m.From = (&stdmail.Address{Name: c.SenderName, Address: c.SenderAddress}).String()
	default:
		m.FromName, m.ReplyTo = c.SenderName, c.SenderAddress
	}
	return m
}
