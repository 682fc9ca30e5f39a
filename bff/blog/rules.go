package blog

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/stores"
	"github.com/pressroom/pressroom/platform/richtext"
)

// Limits of a category and a post.
const (
	maxCategoryName = 100
	maxDescription  = 1000
	maxTitle        = 200
	maxExcerpt      = 500
	// MaxCategories is how many categories one post may be in.
	MaxCategories = 20
)

// Statuses of a post: a draft shows nowhere; a published post shows on the storefront once its
// publish date has come (until then the screens call it scheduled).
const (
	StatusDraft     = "draft"
	StatusPublished = "published"
	StateScheduled  = "scheduled"
)

// Messages the screens show.
const (
	MsgCategoryNotFound  = "Category not found."
	MsgCategoryName      = "The name is required."
	MsgSlug              = "The address may hold lower-case letters, digits and single hyphens, at most 80."
	MsgCategorySlugTaken = "You already have a category at this address; choose another."
	MsgCategoryCreated   = "The category was created."
	MsgCategorySaved     = "The category was saved."
	MsgCategoryDeleted   = "The category was deleted."

	MsgPostNotFound  = "Post not found."
	MsgStore         = "Choose one of your stores."
	MsgTitle         = "The title is required."
	MsgPostSlugTaken = "This store already has a post at this address."
	MsgCover         = "Upload the cover again: this file is not one of your images."
	MsgCategories    = "Choose categories of your own."
	MsgTooManyCats   = "A post may be in at most 20 categories."
	MsgStatus        = "Choose draft or published."
	MsgPublishedAt   = "The publish date must be a date and time, like 2025-05-01T09:00:00Z."
	MsgPostCreated   = "The post was created."
	MsgPostSaved     = "The post was saved."
	MsgPostDeleted   = "The post was deleted."
)

// CategoryInput is a category as the categories screen sends it.
type CategoryInput struct {
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
}

func (in *CategoryInput) check() []envelope.FieldError {
	var errs []envelope.FieldError
	in.Name = strings.TrimSpace(in.Name)
	in.Slug = strings.ToLower(strings.TrimSpace(in.Slug))
	in.Description = strings.TrimSpace(in.Description)
	if in.Name == "" {
		errs = append(errs, envelope.FieldError{Field: "name", Message: MsgCategoryName})
	} else if len([]rune(in.Name)) > maxCategoryName {
		errs = append(errs, envelope.TooLong("name", "name", maxCategoryName))
	}
	if !stores.PathSlugOK(in.Slug) {
		errs = append(errs, envelope.FieldError{Field: "slug", Message: MsgSlug})
	}
	if len([]rune(in.Description)) > maxDescription {
		errs = append(errs, envelope.TooLong("description", "description", maxDescription))
	}
	return errs
}

// PostInput is a post as the editor sends it. PublishedAt (RFC 3339) is when a published post
// shows; a post published without one shows from the moment it is saved.
type PostInput struct {
	StoreID     int64   `json:"store_id"`
	Title       string  `json:"title"`
	Slug        string  `json:"slug"`
	Excerpt     string  `json:"excerpt"`
	Body        string  `json:"body"`
	CoverKey    string  `json:"cover_key"`
	CategoryIDs []int64 `json:"category_ids"`
	Status      string  `json:"status"`
	PublishedAt string  `json:"published_at"`

	publishedAt *time.Time
}

// check normalises the input, sanitizes the body and lists the problems that need no database.
func (in *PostInput) check(now time.Time) []envelope.FieldError {
	var errs []envelope.FieldError
	add := func(f, m string) { errs = append(errs, envelope.FieldError{Field: f, Message: m}) }
	in.Title = strings.TrimSpace(in.Title)
	in.Slug = strings.ToLower(strings.TrimSpace(in.Slug))
	in.Excerpt = strings.TrimSpace(in.Excerpt)
	in.CoverKey = strings.TrimSpace(in.CoverKey)
	if in.StoreID <= 0 {
		add("store_id", MsgStore)
	}
	if in.Title == "" {
		add("title", MsgTitle)
	} else if len([]rune(in.Title)) > maxTitle {
		errs = append(errs, envelope.TooLong("title", "title", maxTitle))
	}
	if !stores.PathSlugOK(in.Slug) {
		add("slug", MsgSlug)
	}
	if len([]rune(in.Excerpt)) > maxExcerpt {
		errs = append(errs, envelope.TooLong("excerpt", "excerpt", maxExcerpt))
	}
	if len(in.Body) > stores.MaxBody {
		errs = append(errs, envelope.TooLong("body", "body", stores.MaxBody))
	}
	in.Body = richtext.Sanitize(in.Body)
	in.CategoryIDs = slices.Compact(slices.Sorted(slices.Values(in.CategoryIDs)))
	if len(in.CategoryIDs) > MaxCategories {
		add("category_ids", MsgTooManyCats)
	}
	if in.Status == "" {
		in.Status = StatusDraft
	}
	if !slices.Contains([]string{StatusDraft, StatusPublished}, in.Status) {
		add("status", MsgStatus)
	}
	if in.PublishedAt = strings.TrimSpace(in.PublishedAt); in.PublishedAt != "" {
		t, err := time.Parse(time.RFC3339, in.PublishedAt)
		if err != nil {
			add("published_at", MsgPublishedAt)
		} else {
			in.publishedAt = &t
		}
	}
	if in.Status == StatusPublished && in.publishedAt == nil {
		in.publishedAt = &now
	}
	return errs
}

func invalid(errs ...envelope.FieldError) error {
	return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
}
