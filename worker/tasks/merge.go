package tasks

import (
	"html"
	"regexp"
	"slices"
	"strings"
)

// MergeField is a value of the recipient a campaign's subject and body may name as {{name}}, or
// {{name|fallback}} to say what stands in when the subscriber has no such value
// (docs/email-marketing.md).
type MergeField struct {
	Name string `json:"name"`
	// Label says what the field holds, in the words the campaign form shows.
	Label string `json:"label"`
	// Sample is what a preview and a test send put in its place.
	Sample string `json:"sample"`
}

// The merge fields, in the order the campaign form lists them.
const (
	MergeFirstName      = "first_name"
	MergeLastName       = "last_name"
	MergeEmail          = "email"
	MergeStoreName      = "store_name"
	MergeUnsubscribeURL = "unsubscribe_url"
)

// MergeFields are the fields every recipient has.
var MergeFields = []MergeField{
	{MergeFirstName, "The subscriber's first name", "Ada"},
	{MergeLastName, "The subscriber's last name", "Lovelace"},
	{MergeEmail, "The subscriber's e-mail address", "ada@example.com"},
	{MergeStoreName, "The name of the store sending the campaign", "Your store"},
	{MergeUnsubscribeURL, "The subscriber's own unsubscribe link", "#unsubscribe"},
}

// mergeTag is one {{name}} or {{name|fallback}}; spaces around the name are allowed.
var mergeTag = regexp.MustCompile(`\{\{\s*([^{}|]*?)\s*(?:\|([^{}]*))?\}\}`)

// UnknownMergeFields lists, once each and in order of appearance, the names in texts that are not
// merge fields.
func UnknownMergeFields(texts ...string) []string {
	var out []string
	for _, text := range texts {
		for _, m := range mergeTag.FindAllStringSubmatch(text, -1) {
			name := m[1]
			known := slices.ContainsFunc(MergeFields, func(f MergeField) bool { return f.Name == name })
			if !known && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// SampleMergeValues are the samples of every field, what a preview and a test send show.
func SampleMergeValues() map[string]string {
	out := make(map[string]string, len(MergeFields))
	for _, f := range MergeFields {
		out[f.Name] = f.Sample
	}
	return out
}

// MergeHTML fills the merge fields of an HTML body with values, escaped as HTML text; the fallback
// (already HTML, sanitized with the body) stands in for an empty value. Unknown names stay as they
// are (saving refuses them).
func MergeHTML(body string, values map[string]string) string {
	return merge(body, values, html.EscapeString)
}

// MergeSubject fills the merge fields of a subject line with values, line breaks made spaces.
func MergeSubject(subject string, values map[string]string) string {
	return merge(subject, values, func(s string) string { return strings.NewReplacer("\r", " ", "\n", " ").Replace(s) })
}

func merge(text string, values map[string]string, escape func(string) string) string {
	return mergeTag.ReplaceAllStringFunc(text, func(tag string) string {
		m := mergeTag.FindStringSubmatch(tag)
		value, ok := values[m[1]]
		if !ok {
			return tag
		}
		if value == "" {
			return m[2]
		}
		return escape(value)
	})
}
