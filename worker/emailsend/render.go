package emailsend

import (
	"html"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
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

// PlainText is the text of a campaign's HTML body as platform/mail delivers it (text/plain): block
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

// render is the text of body for one recipient, whose unsubscribe link is unsubscribeURL.
func render(body, unsubscribeURL string) string {
	return PlainText(strings.ReplaceAll(body, UnsubscribePlaceholder, unsubscribeURL))
}
