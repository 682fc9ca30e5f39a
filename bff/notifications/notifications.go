package notifications

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/microcosm-cc/bluemonday"
)

// Notification types (the popup rules of docs/shell.md).
const (
	// TypeRegular comes back in the popup until it is read or ticked "Don't show this notification".
	TypeRegular = 1
	// TypeOnce is shown in the popup once: closing the popup reports it seen (read-status action 2).
	TypeOnce = 2
)

// Read-status actions of POST /api/seller/notifications/read-status.
const (
	// ActionDismiss is "Don't show this notification" ticked in the popup.
	ActionDismiss = 1
	// ActionSeen reports notifications of TypeOnce shown in the popup.
	ActionSeen = 2
)

// Limits of a notification's fields.
const (
	MaxSubjectLength = 200
	MaxMessageLength = 20_000
	MaxLinkLength    = 2_000
)

// Notification is one notification. Add reads SellerID, Subject, Message,
// Image, CallToActionLink, Type, IsWarning and CreatedBy; the rest is what the lists answer.
type Notification struct {
	ID int64 `db:"id" json:"id"`
	// SellerID is the seller it is meant for; nil means every seller.
	SellerID         *int64 `db:"seller_id" json:"seller_id"`
	Subject          string `db:"subject" json:"subject"`
	Message          string `db:"message" json:"message"`
	Image            string `db:"image" json:"image"`
	CallToActionLink string `db:"call_to_action_link" json:"call_to_action_link"`
	// Type is TypeRegular or TypeOnce; Add takes 0 as TypeRegular.
	Type      int  `db:"type" json:"type"`
	IsWarning bool `db:"is_warning" json:"is_warning"`
	// CreatedBy is the admin who posted it, nil for one the platform raised.
	CreatedBy *int64    `db:"created_by" json:"-"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
	// IsNew is set while the account the list is read for has not read it.
	IsNew bool `db:"is_new" json:"is_new"`
}

// ErrInvalid is the error an *InvalidError matches: Add refused the notification's content.
var ErrInvalid = errors.New("invalid notification")

// InvalidError names the field Add refused and the message the user reads.
type InvalidError struct {
	Field, Message string
}

func (e *InvalidError) Error() string { return fmt.Sprintf("notification %s: %s", e.Field, e.Message) }

// Is makes errors.Is(err, ErrInvalid) true.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// policy keeps the formatting, links and images of user-generated HTML and drops scripts, event
// handler attributes, styles and javascript: URLs. A bluemonday policy is safe for concurrent use
// once built.
var policy = bluemonday.UGCPolicy().RequireNoReferrerOnFullyQualifiedLinks(true)

// SanitizeHTML is message with everything that could run script removed.
func SanitizeHTML(message string) string { return policy.Sanitize(message) }

// WebLink reports whether s is an absolute http(s) address with a host, or, when allowPath, a path
// on this site; never javascript:, data: or a protocol-relative address.
func WebLink(s string, allowPath bool) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if u.Scheme == "http" || u.Scheme == "https" {
		return u.Host != ""
	}
	return allowPath && u.Scheme == "" && u.Host == "" && strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") && !strings.HasPrefix(s, "/\\")
}

// checkLink accepts an empty value, an http(s) URL or a path on this site (WebLink).
func checkLink(field, link string) error {
	if link == "" {
		return nil
	}
	if len(link) > MaxLinkLength {
		return &InvalidError{Field: field, Message: fmt.Sprintf("The %s may not be longer than %d characters.", strings.ReplaceAll(field, "_", " "), MaxLinkLength)}
	}
	if WebLink(link, true) {
		return nil
	}
	return &InvalidError{Field: field, Message: fmt.Sprintf("The %s must be an http(s) address or a path starting with /.", strings.ReplaceAll(field, "_", " "))}
}

// normalize trims n's text fields, applies the defaults and checks every field.
func normalize(n *Notification) error {
	n.Subject = strings.TrimSpace(n.Subject)
	n.Image = strings.TrimSpace(n.Image)
	n.CallToActionLink = strings.TrimSpace(n.CallToActionLink)
	if n.Type == 0 {
		n.Type = TypeRegular
	}
	switch {
	case n.Subject == "":
		return &InvalidError{Field: "subject", Message: "The subject field is required."}
	case utf8.RuneCountInString(n.Subject) > MaxSubjectLength:
		return &InvalidError{Field: "subject", Message: fmt.Sprintf("The subject may not be longer than %d characters.", MaxSubjectLength)}
	case utf8.RuneCountInString(n.Message) > MaxMessageLength:
		return &InvalidError{Field: "message", Message: fmt.Sprintf("The message may not be longer than %d characters.", MaxMessageLength)}
	case n.Type != TypeRegular && n.Type != TypeOnce:
		return &InvalidError{Field: "type", Message: "The type must be 1 or 2."}
	}
	if err := checkLink("image", n.Image); err != nil {
		return err
	}
	return checkLink("call_to_action_link", n.CallToActionLink)
}

// Add stores n, its message sanitized, and returns its id. q is the caller's transaction (or the
// database), so a notification is raised exactly when the change it tells about commits. It
// returns an *InvalidError (matching ErrInvalid) for content it refuses, also for a SellerID that
// names no account.
func Add(ctx context.Context, q sqlx.QueryerContext, n Notification) (int64, error) {
	if err := normalize(&n); err != nil {
		return 0, err
	}
	const insert = `
INSERT INTO notifications (seller_id, subject, message, image, call_to_action_link, type, is_warning, created_by)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`
	var id int64
	err := q.QueryRowxContext(ctx, insert, n.SellerID, n.Subject, SanitizeHTML(n.Message), n.Image,
		n.CallToActionLink, n.Type, n.IsWarning, n.CreatedBy).Scan(&id)
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "23503" && pqErr.Constraint == "notifications_seller_id_fkey" {
		return 0, &InvalidError{Field: "seller_id", Message: MsgNoSuchSeller}
	}
	if err != nil {
		return 0, fmt.Errorf("add notification: %w", err)
	}
	return id, nil
}
