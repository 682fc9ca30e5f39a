package storelink

import (
	"errors"
	"net/url"
	"strings"

	"github.com/pressroom/pressroom/platform/env"
)

// DevSigningKey signs buyers' links (order status, cart recovery, reviews) in development and test;
// the storefront refuses it in production.
const DevSigningKey = "pressroom-development-storefront-signing-key-0001"

// Config is the storefront as links to it are written.
type Config struct {
	// URL is the storefront's address as buyers reach it, without a trailing slash; a store's pages
	// are at {URL}/s/{slug}/ (PRESSROOM_STOREFRONT_PUBLIC_URL, default http://127.0.0.1:8082).
	URL string
	// SigningKey signs the links; the storefront checks them with the same key
	// (PRESSROOM_STOREFRONT_SIGNING_KEY, DevSigningKey by default; at least 32 bytes).
	SigningKey string
}

// DefaultConfig is the storefront of a local stack.
func DefaultConfig() Config {
	return Config{URL: "http://127.0.0.1:8082", SigningKey: DevSigningKey}
}

// LoadConfig reads the two variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.URL, "PRESSROOM_STOREFRONT_PUBLIC_URL")
	r.String(&cfg.SigningKey, "PRESSROOM_STOREFRONT_SIGNING_KEY")
	cfg.URL = strings.TrimRight(cfg.URL, "/")
	return cfg, r.Err()
}

// Validate names the variable to fix.
func (c Config) Validate() error {
	if len(c.SigningKey) < 32 {
		return errors.New("PRESSROOM_STOREFRONT_SIGNING_KEY: want at least 32 bytes")
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return errors.New("PRESSROOM_STOREFRONT_PUBLIC_URL: want an http(s) address such as https://shops.example.com")
	}
	return nil
}

// Store is the base of the pages of the store slug: {URL}/s/{slug}. A page's path (starting with
// /) follows it.
func (c Config) Store(slug string) string { return c.URL + "/s/" + url.PathEscape(slug) }
