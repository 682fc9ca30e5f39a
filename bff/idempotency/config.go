package idempotency

import (
	"errors"
	"time"

	"github.com/pressroom/pressroom/platform/env"
)

// Config tunes the idempotency keys.
type Config struct {
	// TTL is how long a key and its answer are kept (PRESSROOM_IDEMPOTENCY_TTL, default 24h): a
	// repeat after that runs again.
	TTL time.Duration
	// Wait is how long a repeat waits for the first request with its key to finish
	// (PRESSROOM_IDEMPOTENCY_WAIT, default 30s); past it the repeat is answered 409, to retry.
	Wait time.Duration
	// Abandoned is the age past which a key whose first request never finished (its process died)
	// is given to the next request (PRESSROOM_IDEMPOTENCY_ABANDONED, default 5m; more than any
	// request takes).
	Abandoned time.Duration
}

// DefaultConfig keeps keys a day, waits 30 s for a running first request, takes over after 5 min.
func DefaultConfig() Config {
	return Config{TTL: 24 * time.Hour, Wait: 30 * time.Second, Abandoned: 5 * time.Minute}
}

// LoadConfig reads the PRESSROOM_IDEMPOTENCY_* variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Duration(&cfg.TTL, "PRESSROOM_IDEMPOTENCY_TTL")
	r.Duration(&cfg.Wait, "PRESSROOM_IDEMPOTENCY_WAIT")
	r.Duration(&cfg.Abandoned, "PRESSROOM_IDEMPOTENCY_ABANDONED")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	switch {
	case c.TTL < time.Minute:
		return errors.New("PRESSROOM_IDEMPOTENCY_TTL must be at least 1m")
	case c.Wait < 100*time.Millisecond:
		return errors.New("PRESSROOM_IDEMPOTENCY_WAIT must be at least 100ms")
	case c.Abandoned < c.Wait:
		return errors.New("PRESSROOM_IDEMPOTENCY_ABANDONED must be at least PRESSROOM_IDEMPOTENCY_WAIT")
	}
	return nil
}
