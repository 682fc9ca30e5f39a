package emailsend

import (
	stdmail "net/mail"

	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/worker/tasks"
)

// message is campaign c as mailed to the address to, its subject and body with the merge fields
// filled from values (tasks.MergeFields): the seller's HTML with its text alternative, from the
// campaign's sender (as From on a verified domain, else by name with replies going to it).
func message(c campaign, to, subjectPrefix string, values map[string]string) mail.Message {
	html := tasks.MergeHTML(c.BodyHTML, values)
	m := mail.Message{To: to, Subject: subjectPrefix + tasks.MergeSubject(c.Subject, values), Body: mail.PlainText(html), HTML: html}
	switch {
	case c.SenderAddress == "":
	case c.SenderVerified:
		m.From = (&stdmail.Address{Name: c.SenderName, Address: c.SenderAddress}).String()
	default:
		m.FromName, m.ReplyTo = c.SenderName, c.SenderAddress
	}
	return m
}

// recipientValues are the merge values of delivery d of campaign c, whose unsubscribe link is
// unsubscribeURL.
func recipientValues(c campaign, d delivery, unsubscribeURL string) map[string]string {
	return map[string]string{
		tasks.MergeFirstName: d.FirstName, tasks.MergeLastName: d.LastName, tasks.MergeEmail: d.Email,
		tasks.MergeStoreName: c.StoreName, tasks.MergeUnsubscribeURL: unsubscribeURL,
	}
}
