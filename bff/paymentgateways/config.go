package paymentgateways

import (
	"errors"
	"strings"

	"github.com/pressroom/pressroom/platform/env"
)

// Config is where Stripe is told to deliver a gateway's webhooks.
type Config struct {
	// StorefrontURL is the storefront's address as Stripe reaches it, the base of each gateway's
	// webhook endpoint {StorefrontURL}/webhooks/stripe/{id} (PRESSROOM_STOREFRONT_PUBLIC_URL, the
	// worker's setting of the same name; default http://127.0.0.1:8082).
	StorefrontURL string
}

// DefaultConfig is the storefront of scripts/dev.
func DefaultConfig() Config { return Config{StorefrontURL: "http://127.0.0.1:8082"} }

// LoadConfig reads PRESSROOM_STOREFRONT_PUBLIC_URL over the default.
func LoadConfig(lookup env.Lookup) (Config, error) {
	c := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&c.StorefrontURL, "PRESSROOM_STOREFRONT_PUBLIC_URL")
	c.StorefrontURL = strings.TrimRight(c.StorefrontURL, "/")
	return c, r.Err()
}

// Validate names the variable to fix.
func (c Config) Validate() error {
	if !strings.HasPrefix(c.StorefrontURL, "http://") && !strings.HasPrefix(c.StorefrontURL, "https://") {
		return errors.New("PRESSROOM_STOREFRONT_PUBLIC_URL: want an http(s) address such as https://shops.example.com")
	}
	return nil
}
