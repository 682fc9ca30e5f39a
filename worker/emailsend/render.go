package emailsend

import (
	"html"
	stdmail "net/mail"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"

	"github.com/pressroom/pressroom/platform/mail"
)

// UnsubscribePlaceholder is where a campaign's HTML body takes the recipient's unsubscribe link.
const UnsubscribePlaceholder = "{{unsubscribe_url}}"

// UnsubscribePath is the public path of an unsubscribe link, followed by the delivery's token.
const UnsubscribePath = "/api/public/email-marketing/unsubscribe/"

var (
	anchor    = regexp.MustCompile(`(?is)<a\s[^>]*href\s*=\s*"([^"]*)"[^>]*>(.*?)</a>`)
	lineBreak = regexp.MustCompile(`(?i)<br\s*/?>|</(p|div|h[1-6]|li|tr|table|blockquote)>`)
	blankRuns = regexp.MustCompile(`\n[ \t]*(\n[ \t]*)+`)
	spaceRuns = regexp.MustCompile(`[ \t]+`)
	stripAll  = bluemonday.StrictPolicy()
)

// PlainText is the text alternative of a campaign's HTML body (and what the local outbox keeps): block
// ends become line breaks, links keep their address in brackets, other markup goes.
func PlainText(body string) string {
	s := anchor.ReplaceAllString(body, "$2 ($1)")
	s = lineBreak.ReplaceAllString(s, "\n")
	s = html.UnescapeString(stripAll.Sanitize(s))
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(spaceRuns.ReplaceAllString(l, " "))
	}
	return strings.TrimSpace(blankRuns.ReplaceAllString(strings.Join(lines, "\n"), "\n\n"))
}

// message is campaign c as mailed to the address to, whose unsubscribe link is unsubscribeURL: the
// seller's HTML with its text alternative, from the campaign's sender (as From on a verified domain,
// else by name with replies going to it).
func message(c campaign, to, subject, unsubscribeURL string) mail.Message {
	html := strings.ReplaceAll(c.BodyHTML, UnsubscribePlaceholder, unsubscribeURL)
	m := mail.Message{To: to, Subject: subject, Body: PlainText(html), HTML: html}
	switch {
	case c.SenderAddress == "":
	case c.SenderVerified:
		m.From = (&stdmail.Address{Name: c.SenderName, Address: c.SenderAddress}).String()
	default:
		m.FromName, m.ReplyTo = c.SenderName, c.SenderAddress
	}
	return m
}
