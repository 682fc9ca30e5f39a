package cliparts

import (
	"errors"
	"time"

	"github.com/pressroom/pressroom/platform/env"
)

// Config tunes the clipart library.
type Config struct {
	// RemoveAfter is how long after its deletion the files of a clipart no design uses are removed
	// (PRESSROOM_CLIPART_REMOVE_AFTER, default 24h; 0 removes them at the next sweep). The wait covers an
	// editor opened before the deletion whose save still names the clipart.
	RemoveAfter time.Duration
	// SweepEvery is how often deleted cliparts are looked at (PRESSROOM_CLIPART_SWEEP_EVERY, default 1h).
	SweepEvery time.Duration
}

// DefaultConfig is the configuration described on each field.
func DefaultConfig() Config {
	return Config{RemoveAfter: 24 * time.Hour, SweepEvery: time.Hour}
}

// LoadConfig reads the PRESSROOM_CLIPART_* variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Duration(&cfg.RemoveAfter, "PRESSROOM_CLIPART_REMOVE_AFTER")
	r.Duration(&cfg.SweepEvery, "PRESSROOM_CLIPART_SWEEP_EVERY")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	switch {
	case c.RemoveAfter < 0:
		return errors.New("PRESSROOM_CLIPART_REMOVE_AFTER must not be negative")
	case c.SweepEvery < time.Second:
		return errors.New("PRESSROOM_CLIPART_SWEEP_EVERY: want at least 1s")
	}
	return nil
}
