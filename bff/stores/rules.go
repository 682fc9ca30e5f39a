package stores

import (
	"regexp"
	"slices"
	"strings"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

// Enumerations of a store.
var (
	ReviewSettings  = []string{"disable", "enable-only-store", "enable-share-review"}
	ProductStatuses = []string{"draft", "active", "inactive", "reviewing", "blocked"}
)

var (
	slugRe  = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	colorRe = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
	keyRe   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9/_.-]{0,400}$`)
)

// reservedSlugs would read as the platform's own names in a store address.
var reservedSlugs = []string{"www", "api", "admin", "app", "static", "assets", "mail", "pressroom", "store", "stores"}

// StoreInput is what a seller sends to create or change a store.
type StoreInput struct {
	Name          string `json:"name"`
	Slug          string `json:"slug"`
	LogoKey       string `json:"logo_key"`
	FaviconKey    string `json:"favicon_key"`
	PrimaryColor  string `json:"primary_color"`
	AccentColor   string `json:"accent_color"`
	Currency      string `json:"currency"`
	TargetMarket  string `json:"target_market"`
	ReviewSetting string `json:"review_setting"`
	IsOpen        *bool  `json:"is_open"`
}

// slugProblem says what is wrong with a slug, empty when it is well formed.
func slugProblem(slug string) string {
	switch {
	case len(slug) < 3 || len(slug) > 40:
		return "The address must be 3 to 40 characters long."
	case !slugRe.MatchString(slug):
		return "The address may hold lower-case letters, digits and single hyphens between them."
	case slices.Contains(reservedSlugs, slug) || strings.HasPrefix(slug, "store-"):
		return "This address is reserved; choose another."
	}
	return ""
}

// PathSlugOK reports whether slug may name something under a store's address (a page, a
// collection): 1 to 80 lower-case letters, digits and single hyphens between them.
func PathSlugOK(slug string) bool { return slug != "" && len(slug) <= 80 && slugRe.MatchString(slug) }

// check normalises the input and lists every problem; owner keys must be the caller's uploads.
func (in *StoreInput) check() []envelope.FieldError {
	var errs []envelope.FieldError
	add := func(f, m string) { errs = append(errs, envelope.FieldError{Field: f, Message: m}) }
	in.Name = strings.TrimSpace(in.Name)
	in.Slug = strings.ToLower(strings.TrimSpace(in.Slug))
	if in.Name == "" {
		add("name", "The name is required.")
	} else if len([]rune(in.Name)) > 100 {
		errs = append(errs, envelope.TooLong("name", "name", 100))
	}
	if p := slugProblem(in.Slug); p != "" {
		add("slug", p)
	}
	for _, k := range []struct{ field, v string }{{"logo_key", in.LogoKey}, {"favicon_key", in.FaviconKey}} {
		if k.v != "" && (!keyRe.MatchString(k.v) || strings.Contains(k.v, "..")) {
			add(k.field, "Upload the image again: this file name is not one of your uploads.")
		}
	}
	if in.PrimaryColor == "" {
		in.PrimaryColor = "#1f2a44"
	}
	if in.AccentColor == "" {
		in.AccentColor = "#d82e8b"
	}
	for _, c := range []struct{ field, v string }{{"primary_color", in.PrimaryColor}, {"accent_color", in.AccentColor}} {
		if !colorRe.MatchString(c.v) {
			add(c.field, "Choose a colour like #1f2a44.")
		}
	}
	if in.Currency == "" {
		in.Currency = string(money.USD)
	}
	if _, err := money.ParseCurrency(in.Currency); err != nil {
		add("currency", "The currency must be EUR or USD.")
	} else {
		in.Currency = strings.ToUpper(in.Currency)
	}
	if in.TargetMarket == "" {
		in.TargetMarket = pricing.MarketUnitedStates
	}
	if !slices.Contains(pricing.Markets, in.TargetMarket) {
		add("target_market", "The target market must be one of "+strings.Join(pricing.Markets, ", ")+".")
	}
	if in.ReviewSetting == "" {
		in.ReviewSetting = "disable"
	}
	if !slices.Contains(ReviewSettings, in.ReviewSetting) {
		add("review_setting", "The review setting must be one of "+strings.Join(ReviewSettings, ", ")+".")
	}
	if in.IsOpen == nil {
		t := true
		in.IsOpen = &t
	}
	return errs
}

// PublishInput publishes a campaign to a store: every product of the campaign at its template's
// base cost plus Margin, or at the price given for it in Prices, with Status.
type PublishInput struct {
	CampaignID int64             `json:"campaign_id"`
	Margin     string            `json:"margin"`
	Prices     map[string]string `json:"prices"` // product id -> price, overriding the margin
	Status     string            `json:"status"`
}
