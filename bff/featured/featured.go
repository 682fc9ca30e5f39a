package featured

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/notifications"
)

// Limits of an article's fields.
const (
	MaxSubjectLength = 200
	MaxContentLength = 50_000
	MaxURLLength     = 2_000
)

// Messages of the article checks.
const (
	MsgSubjectRequired = "The subject field is required."
	MsgBadBanner       = "The banner must be an http(s) address or a path starting with /."
	MsgBadLink         = "The link must be an http(s) address."
	MsgNotFound        = "Featured article not found."
	MsgSaved           = "The featured article has been saved."
)

// ErrNotFound means no article has the id.
var ErrNotFound = errors.New("featured article not found")

// Article is one featured article.
type Article struct {
	ID      int64  `db:"id" json:"id"`
	Subject string `db:"subject" json:"subject"`
	// Banner is the image shown in the carousel and at the top of the modal.
	Banner string `db:"banner" json:"banner"`
	// Content is sanitized HTML.
	Content string `db:"content" json:"content"`
	// Link, when set, opens in a new tab instead of the modal.
	Link string `db:"link" json:"link"`
	// Position orders the carousel, lowest first.
	Position  int       `db:"position" json:"position"`
	Active    bool      `db:"active" json:"active"`
	UpdatedAt time.Time `db:"updated_at" json:"updated_at"`
}

// Check trims a, sanitizes its content and returns what is wrong with it.
func Check(a *Article) []envelope.FieldError {
	a.Subject, a.Banner, a.Link = strings.TrimSpace(a.Subject), strings.TrimSpace(a.Banner), strings.TrimSpace(a.Link)
	a.Content = notifications.SanitizeHTML(a.Content)
	var errs []envelope.FieldError
	long := func(field, v string, limit int) bool {
		if utf8.RuneCountInString(v) > limit {
			errs = append(errs, envelope.TooLong(field, field, limit))
			return true
		}
		return false
	}
	if a.Subject == "" {
		errs = append(errs, envelope.FieldError{Field: "subject", Message: MsgSubjectRequired})
	}
	long("subject", a.Subject, MaxSubjectLength)
	long("content", a.Content, MaxContentLength)
	if !long("banner", a.Banner, MaxURLLength) && a.Banner != "" && !notifications.WebLink(a.Banner, true) {
		errs = append(errs, envelope.FieldError{Field: "banner", Message: MsgBadBanner})
	}
	if !long("link", a.Link, MaxURLLength) && a.Link != "" && !notifications.WebLink(a.Link, false) {
		errs = append(errs, envelope.FieldError{Field: "link", Message: MsgBadLink})
	}
	return errs
}

const columns = `id, subject, banner, content, link, position, active, updated_at`

// served is list with each content sanitized again on the way out.
func served(list []Article) []Article {
	for i := range list {
		list[i].Content = notifications.SanitizeHTML(list[i].Content)
	}
	return list
}

// List is every article, carousel order, only the active ones when activeOnly.
func List(ctx context.Context, db sqlx.QueryerContext, activeOnly bool) ([]Article, error) {
	q := `SELECT ` + columns + ` FROM featured_articles`
	if activeOnly {
		q += ` WHERE active`
	}
	out := []Article{}
	if err := sqlx.SelectContext(ctx, db, &out, q+` ORDER BY position, id`); err != nil {
		return nil, fmt.Errorf("list featured articles: %w", err)
	}
	return served(out), nil
}

// Save stores a checked article: a new one when a.ID is 0, else it replaces article a.ID
// (ErrNotFound when there is none), keeping its stored active flag when keepActive (an edit that
// did not send one). It returns the stored article.
func Save(ctx context.Context, db sqlx.QueryerContext, a Article, keepActive bool) (Article, error) {
	var out Article
	var err error
	if a.ID == 0 {
		const q = `
INSERT INTO featured_articles (subject, banner, content, link, position, active)
VALUES ($1, $2, $3, $4, $5, $6) RETURNING ` + columns
		err = sqlx.GetContext(ctx, db, &out, q, a.Subject, a.Banner, a.Content, a.Link, a.Position, a.Active)
	} else {
		const q = `
UPDATE featured_articles SET subject = $2, banner = $3, content = $4, link = $5, position = $6,
       active = CASE WHEN $8 THEN active ELSE $7 END, updated_at = now()
WHERE id = $1 RETURNING ` + columns
		err = sqlx.GetContext(ctx, db, &out, q, a.ID, a.Subject, a.Banner, a.Content, a.Link, a.Position, a.Active, keepActive)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return out, ErrNotFound
	}
	if err != nil {
		return out, fmt.Errorf("save featured article: %w", err)
	}
	return out, nil
}
