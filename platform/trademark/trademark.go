package trademark

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/jmoiron/sqlx"
)

// MaxTerm is the longest term, in characters, once normalized.
const MaxTerm = 100

// Normalize is text as terms are stored and matched: lower case, every run of characters other
// than letters and digits made one space, trimmed.
func Normalize(text string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(text) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			continue
		}
		space = true
	}
	return b.String()
}

// qMatches are the terms on the list found as whole words in $1 (normalized text).
const qMatches = `SELECT term FROM trademarks WHERE ' ' || $1 || ' ' LIKE '% ' || term || ' %' ORDER BY term`

// Matches are the listed terms text holds, in order.
func Matches(ctx context.Context, q sqlx.QueryerContext, text string) ([]string, error) {
	n := Normalize(text)
	out := []string{}
	if n == "" {
		return out, nil
	}
	if err := sqlx.SelectContext(ctx, q, &out, qMatches, n); err != nil {
		return nil, fmt.Errorf("match trademarks: %w", err)
	}
	return out, nil
}

// Warning is what a seller is told of a listed term in a field.
type Warning struct {
	Field   string `json:"field"`
	Term    string `json:"term"`
	Message string `json:"message"`
}

// Warnings are the warnings for the listed terms text (the value of field) holds.
func Warnings(ctx context.Context, q sqlx.QueryerContext, field, text string) ([]Warning, error) {
	terms, err := Matches(ctx, q, text)
	if err != nil {
		return nil, err
	}
	out := make([]Warning, len(terms))
	for i, t := range terms {
		out[i] = Warning{Field: field, Term: t, Message: fmt.Sprintf(
			"%q is on the list of trademarks: a campaign using it without the owner's permission may be taken down.", t)}
	}
	return out, nil
}
