package abandoned

import (
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/pressroom/pressroom/commerce/recovery"
	"github.com/pressroom/pressroom/platform/env"
)

// Config is when checkouts count as abandoned and where their recovery links point.
type Config struct {
	// After is how long a checkout with an e-mail stays unpaid before it is abandoned
	// (PRESSROOM_ABANDON_AFTER, default 1h).
	After time.Duration
	// Interval is how often the worker looks (PRESSROOM_ABANDON_INTERVAL, default 1m).
	Interval time.Duration
	// Batch caps the checkouts marked and the e-mails sent in one pass (default 200); the next pass
	// takes the rest.
	Batch int
	// StorefrontURL is the storefront's address as buyers reach it, the base of recovery links as
	// {StorefrontURL}/s/{slug}/recover/... (PRESSROOM_STOREFRONT_PUBLIC_URL, default
	// http://127.0.0.1:8082).
	StorefrontURL string
	// SigningKey signs the links; the storefront checks them with the same key
	// (PRESSROOM_STOREFRONT_SIGNING_KEY, the development key by default).
	SigningKey string
}

// DefaultConfig is the configuration of a local stack.
func DefaultConfig() Config {
	return Config{After: time.Hour, Interval: time.Minute, Batch: 200, StorefrontURL: "http://127.0.0.1:8082",
		SigningKey: recovery.DevSigningKey}
}

// LoadConfig reads the variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Duration(&cfg.After, "PRESSROOM_ABANDON_AFTER")
	r.Duration(&cfg.Interval, "PRESSROOM_ABANDON_INTERVAL")
	r.String(&cfg.StorefrontURL, "PRESSROOM_STOREFRONT_PUBLIC_URL")
	r.String(&cfg.SigningKey, "PRESSROOM_STOREFRONT_SIGNING_KEY")
	cfg.StorefrontURL = strings.TrimRight(cfg.StorefrontURL, "/")
	return cfg, r.Err()
}

// Validate names the variable to fix.
func (c Config) Validate() error {
	switch {
	case c.After < time.Minute:
		return errors.New("PRESSROOM_ABANDON_AFTER: want at least 1m, e.g. 1h")
	case c.Interval <= 0:
		return errors.New("PRESSROOM_ABANDON_INTERVAL must be positive, e.g. 1m")
	case c.Batch < 1:
		return errors.New("abandoned checkouts: the batch must be at least 1")
	case len(c.SigningKey) < 32:
		return errors.New("PRESSROOM_STOREFRONT_SIGNING_KEY: want at least 32 bytes")
	}
	u, err := url.Parse(c.StorefrontURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("PRESSROOM_STOREFRONT_PUBLIC_URL: want an http(s) address such as https://shops.example.com")
	}
	return nil
}
