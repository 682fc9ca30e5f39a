package publicapi

import (
	"errors"
	"time"

	"github.com/pressroom/pressroom/platform/env"
)

// Config tunes the public API.
type Config struct {
	// RateLimit is how many requests one key may make per RateWindow (PRESSROOM_API_RATE_LIMIT,
	// default 600); 0 means no limit.
	RateLimit int64
	// RateWindow is the length of a rate-limit window (PRESSROOM_API_RATE_WINDOW, default 1m).
	RateWindow time.Duration
}

// DefaultConfig allows 600 requests a minute per key.
func DefaultConfig() Config { return Config{RateLimit: 600, RateWindow: time.Minute} }

// LoadConfig reads the PRESSROOM_API_* variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Int64(&cfg.RateLimit, "PRESSROOM_API_RATE_LIMIT")
	r.Duration(&cfg.RateWindow, "PRESSROOM_API_RATE_WINDOW")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	switch {
	case c.RateLimit < 0:
		return errors.New("PRESSROOM_API_RATE_LIMIT must be 0 (no limit) or more")
	case c.RateWindow < time.Second:
		return errors.New("PRESSROOM_API_RATE_WINDOW must be at least 1s")
	}
	return nil
}
