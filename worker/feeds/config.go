package feeds

import (
	"errors"
	"time"

	"github.com/pressroom/pressroom/platform/env"
)

// Config tunes the builds and the watch for catalogue changes.
type Config struct {
	// CheckInterval is how often the catalogues under the feeds are compared with their last build
	// (PRESSROOM_FEED_CHECK_INTERVAL, default 1m; 1s to 24h).
	CheckInterval time.Duration
	// Batch is how many products a build reads at a time (default 500): what its memory holds.
	Batch int
}

// DefaultConfig checks every minute and reads 500 products at a time.
func DefaultConfig() Config { return Config{CheckInterval: time.Minute, Batch: 500} }

// LoadConfig reads PRESSROOM_FEED_CHECK_INTERVAL over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Duration(&cfg.CheckInterval, "PRESSROOM_FEED_CHECK_INTERVAL")
	return cfg, r.Err()
}

// Validate names the variable to fix.
func (c Config) Validate() error {
	if c.CheckInterval < time.Second || c.CheckInterval > 24*time.Hour {
		return errors.New("PRESSROOM_FEED_CHECK_INTERVAL: want 1s to 24h, e.g. 1m")
	}
	if c.Batch < 1 {
		return errors.New("feeds: the batch must be at least 1")
	}
	return nil
}
