package richtext

import (
	"html"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/microcosm-cc/bluemonday"
)

// policy keeps what the editor makes (paragraphs, headings, emphasis, lists, quotes, code, rules,
// links, images) and drops scripts, event handlers, styles, frames, forms and javascript: or data:
// addresses. Links leaving the store open in a new tab without telling the other site where the
// buyer came from. A bluemonday policy is safe for concurrent use once built.
var policy = bluemonday.UGCPolicy().
	RequireNoReferrerOnFullyQualifiedLinks(true).
	AddTargetBlankToFullyQualifiedLinks(true)

// Sanitize is body with everything that could run script or restyle the page removed, and without
// the empty paragraphs the editor leaves at its end (they would show as blank space).
func Sanitize(body string) string {
	return trailingEmpty.ReplaceAllString(policy.Sanitize(body), "")
}

// trailingEmpty is the run of empty paragraphs (nothing, spaces or a line break in them) ending a body.
var trailingEmpty = regexp.MustCompile(`(?i)(<p>(\s|&nbsp;|<br\s*/?>)*</p>\s*)+$`)

var (
	stripAll   = bluemonday.StrictPolicy()
	blockEnd   = regexp.MustCompile(`(?i)<br\s*/?>|</(p|div|h[1-6]|li|blockquote|pre)>`)
	whitespace = regexp.MustCompile(`\s+`)
)

// Summary is the text of body on one line, cut at a word to at most max characters with an
// ellipsis when it is longer: the excerpt of a post that has none, and the description of a page.
func Summary(body string, max int) string {
	s := blockEnd.ReplaceAllString(body, " ")
	s = html.UnescapeString(stripAll.Sanitize(s))
	s = strings.TrimSpace(whitespace.ReplaceAllString(s, " "))
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)[:max]
	if i := strings.LastIndexByte(string(r), ' '); i > 0 {
		return strings.TrimRight(string(r)[:i], " ,.;:") + "…"
	}
	return string(r[:max-1]) + "…"
}
