package abandoned

import (
	"errors"
	"time"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/storelink"
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
	// Links is where recovery links point, {URL}/s/{slug}/recover/..., and the key they are signed
	// with (PRESSROOM_STOREFRONT_PUBLIC_URL, PRESSROOM_STOREFRONT_SIGNING_KEY).
	Links storelink.Config
}

// DefaultConfig is the configuration of a local stack.
func DefaultConfig() Config {
	return Config{After: time.Hour, Interval: time.Minute, Batch: 200, Links: storelink.DefaultConfig()}
}

// LoadConfig reads the variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Duration(&cfg.After, "PRESSROOM_ABANDON_AFTER")
	r.Duration(&cfg.Interval, "PRESSROOM_ABANDON_INTERVAL")
	if err := r.Err(); err != nil {
		return cfg, err
	}
	var err error
	cfg.Links, err = storelink.LoadConfig(lookup)
	return cfg, err
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
	}
	return c.Links.Validate()
}
