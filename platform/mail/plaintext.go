package mail

import (
	"html"
	"regexp"
	"strings"

	"github.com/microcosm-cc/bluemonday"
)

var (
	anchor    = regexp.MustCompile(`(?is)<a\s[^>]*href\s*=\s*"([^"]*)"[^>]*>(.*?)</a>`)
	lineBreak = regexp.MustCompile(`(?i)<br\s*/?>|</(p|div|h[1-6]|li|tr|table|blockquote)>`)
	blankRuns = regexp.MustCompile(`\n[ \t]*(\n[ \t]*)+`)
	spaceRuns = regexp.MustCompile(`[ \t]+`)
	stripAll  = bluemonday.StrictPolicy()
)

// PlainText is the text alternative of an HTML body (and what the local outbox keeps): block ends
// become line breaks, links keep their address in brackets, other markup goes. A body whose text
// alternative is empty says nothing a reader without HTML could see.
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
