package emailsend

import (
	"errors"
	"net/url"
	"strings"

	"github.com/pressroom/pressroom/platform/env"
)

// Config is how campaigns are sent.
type Config struct {
	// PublicURL is the dashboard's address, the base of the unsubscribe links in campaign mail
	// (PRESSROOM_PUBLIC_URL, default "http://localhost:8080").
	PublicURL string
	// BatchSize is how many recipients one claim takes (PRESSROOM_EMAIL_SEND_BATCH, default 50).
	BatchSize int
}

// DefaultConfig is the configuration of a local stack.
func DefaultConfig() Config { return Config{PublicURL: "http://localhost:8080", BatchSize: 50} }

// LoadConfig reads the variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.PublicURL, "PRESSROOM_PUBLIC_URL")
	r.Int(&cfg.BatchSize, "PRESSROOM_EMAIL_SEND_BATCH")
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	return cfg, r.Err()
}

// Validate names the variable to fix.
func (c Config) Validate() error {
	u, err := url.Parse(c.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("PRESSROOM_PUBLIC_URL: want an http(s) address such as https://dashboard.example.com")
	}
	if c.BatchSize < 1 || c.BatchSize > 1000 {
		return errors.New("PRESSROOM_EMAIL_SEND_BATCH: want 1 to 1000")
	}
	return nil
}
