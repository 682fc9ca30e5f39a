package systemconfig

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/commerce/pricing"
)

// Keys of the system configs this package reads.
const (
	KeyMaintenance    = "maintenance"
	KeyCurrencyCode   = "currency_code"
	KeyCurrencyLocale = "currency_locale"
)

// The display currency when the configs do not name one.
const (
	DefaultCurrencyCode   = "USD"
	DefaultCurrencyLocale = "en-US"
)

// Color is a garment colour.
type Color struct {
	Name    string `db:"name" json:"name"`
	HexCode string `db:"hex_code" json:"hex_code"`
}

// Country is an ISO 3166-1 country.
type Country struct {
	Code string `db:"code" json:"code"`
	Name string `db:"name" json:"name"`
}

// Location is a shipping location: an ISO 3166-2 subdivision and its kind (state, province, ...).
type Location struct {
	Code string `db:"code" json:"code"`
	Name string `db:"name" json:"name"`
	Type string `db:"type" json:"type"`
}

// Currency is the platform's display currency.
type Currency struct {
	Locale string `json:"locale"`
	Code   string `json:"code"`
}

// Shared is the answer of GET /api/system-configs.
type Shared struct {
	Colors    []Color           `json:"colors"`
	Configs   map[string]string `json:"configs"`
	Countries []Country         `json:"countries"`
	Locations []Location        `json:"locations"`
	Currency  Currency          `json:"currency"`
}

// Load reads the shared configuration.
func Load(ctx context.Context, db sqlx.QueryerContext) (Shared, error) {
	out := Shared{Colors: []Color{}, Countries: []Country{}, Locations: []Location{}}
	if err := sqlx.SelectContext(ctx, db, &out.Colors, `SELECT name, hex_code FROM system_colors ORDER BY position, name`); err != nil {
		return out, fmt.Errorf("load system colours: %w", err)
	}
	configs, err := Configs(ctx, db, "")
	if err != nil {
		return out, err
	}
	out.Configs = configs
	if err := sqlx.SelectContext(ctx, db, &out.Countries, `SELECT code, name FROM countries ORDER BY name`); err != nil {
		return out, fmt.Errorf("load countries: %w", err)
	}
	if err := sqlx.SelectContext(ctx, db, &out.Locations, `SELECT code, name, type FROM locations ORDER BY code`); err != nil {
		return out, fmt.Errorf("load locations: %w", err)
	}
	out.Currency = Currency{Locale: DefaultCurrencyLocale, Code: DefaultCurrencyCode}
	if v := out.Configs[KeyCurrencyLocale]; v != "" {
		out.Currency.Locale = v
	}
	if v := out.Configs[KeyCurrencyCode]; v != "" {
		out.Currency.Code = v
	}
	return out, nil
}

// maintenanceOf reports whether configs put the platform in maintenance: the system config
// "maintenance" holds a true value (true, 1, t). A missing or empty key means no maintenance; any
// other value is an operator's mistake and an error, so a typo never silently reopens the platform.
func maintenanceOf(configs map[string]string) (bool, error) {
	v := configs[KeyMaintenance]
	if v == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("system config %q: want true or false, got %q", KeyMaintenance, v)
	}
	return on, nil
}

// validKey is the shape of a config key (the table's check).
var validKey = regexp.MustCompile(`^[a-z][a-z0-9_.]*$`)

// maxValueLength bounds a config value.
const maxValueLength = 10_000

// Messages of check.
const (
	MsgBadKey         = "The key must be lower-case letters, digits, dots and underscores, starting with a letter."
	MsgValueTooLong   = "The value may not be longer than 10000 characters."
	MsgBadMaintenance = "The maintenance value must be true or false."
	MsgBadMoney       = "The processing fee and the compare-at price rate must be a percent from 0 to 100 (like 4 or 3.5); the minimum fee and the payout minimum an amount like 0.50."
)

// check returns what is wrong with setting key to value, or nil.
func check(key, value string) *envelope.FieldError {
	switch {
	case !validKey.MatchString(key):
		return &envelope.FieldError{Field: "key", Message: MsgBadKey}
	case len(value) > maxValueLength:
		return &envelope.FieldError{Field: "value", Message: MsgValueTooLong}
	case key == KeyMaintenance:
		if _, err := strconv.ParseBool(value); err != nil {
			return &envelope.FieldError{Field: "value", Message: MsgBadMaintenance}
		}
	case pricing.CheckSetting(key, value) != nil || ledger.CheckSetting(key, value) != nil:
		return &envelope.FieldError{Field: "value", Message: MsgBadMoney}
	}
	return nil
}

// Set stores value under key, a pair check accepts, creating the key when it is new.
func Set(ctx context.Context, db sqlx.ExecerContext, key, value string) error {
	const q = `
INSERT INTO system_configs (key, value) VALUES ($1, $2)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`
	if _, err := db.ExecContext(ctx, q, key, value); err != nil {
		return fmt.Errorf("set system config %q: %w", key, err)
	}
	return nil
}

// Brands a dashboard host can carry.
const (
	BrandDefault      = "default"
	BrandSecond       = "second"
	BrandSellerCentre = "seller_centre"
)

// DefaultBrandName is the default brand's name.
const DefaultBrandName = "Pressroom"

// Brand is the branding of one host: which brand and the name shown beside its logo.
type Brand struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// brandKeys are, per brand other than the default, the configs naming its hosts (comma-separated
// host names, ports ignored) and its name.
var brandKeys = []struct{ kind, hosts, name string }{
	{BrandSecond, "brand.second.hosts", "brand.second.name"},
	{BrandSellerCentre, "brand.seller_centre.hosts", "brand.seller_centre.name"},
}

// BrandOf is the brand configs give host: the first brand listing it, else the default brand.
func BrandOf(configs map[string]string, host string) Brand {
	name := strings.ToLower(host)
	if h, _, err := net.SplitHostPort(name); err == nil {
		name = h
	}
	for _, b := range brandKeys {
		for _, h := range strings.Split(configs[b.hosts], ",") {
			if h = strings.ToLower(strings.TrimSpace(h)); h != "" && h == name {
				brand := Brand{Kind: b.kind, Name: configs[b.name]}
				if brand.Name == "" {
					brand.Name = DefaultBrandName
				}
				return brand
			}
		}
	}
	return Brand{Kind: BrandDefault, Name: DefaultBrandName}
}

// Configs reads the key-value settings whose key starts with prefix.
func Configs(ctx context.Context, db sqlx.QueryerContext, prefix string) (map[string]string, error) {
	var rows []struct {
		Key   string `db:"key"`
		Value string `db:"value"`
	}
	const q = `SELECT key, value FROM system_configs WHERE starts_with(key, $1)`
	if err := sqlx.SelectContext(ctx, db, &rows, q, prefix); err != nil {
		return nil, fmt.Errorf("load system configs %q: %w", prefix, err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Key] = r.Value
	}
	return out, nil
}
