package webhooks

import (
	"errors"
	"time"

	"github.com/pressroom/pressroom/commerce/webhooks"
	"github.com/pressroom/pressroom/platform/env"
)

// Config tunes the deliveries.
type Config struct {
	Hooks webhooks.Config
	// Interval is how often the loop looks for new events and due deliveries when idle
	// (PRESSROOM_WEBHOOK_INTERVAL, default 1s).
	Interval time.Duration
	// Concurrency is how many deliveries are sent at once (PRESSROOM_WEBHOOK_CONCURRENCY, default 16).
	Concurrency int
	// Timeout caps one try, connection, answer and body included (PRESSROOM_WEBHOOK_TIMEOUT, default 10s).
	Timeout time.Duration
	// RetryBase is the wait after the first failed try, doubled after each further one up to
	// RetryMax (PRESSROOM_WEBHOOK_RETRY_BASE, default 30s; PRESSROOM_WEBHOOK_RETRY_MAX, default 1h).
	RetryBase, RetryMax time.Duration
	// Batch is how many events one fan-out step takes (default 500).
	Batch int
}

// DefaultConfig is the configuration of a local stack.
func DefaultConfig() Config {
	return Config{Hooks: webhooks.DefaultConfig(), Interval: time.Second, Concurrency: 16, Timeout: 10 * time.Second,
		RetryBase: 30 * time.Second, RetryMax: time.Hour, Batch: 500}
}

// LoadConfig reads the variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	var err error
	if cfg.Hooks, err = webhooks.LoadConfig(lookup); err != nil {
		return cfg, err
	}
	r := env.NewReader(lookup)
	r.Duration(&cfg.Interval, "PRESSROOM_WEBHOOK_INTERVAL")
	r.Int(&cfg.Concurrency, "PRESSROOM_WEBHOOK_CONCURRENCY")
	r.Duration(&cfg.Timeout, "PRESSROOM_WEBHOOK_TIMEOUT")
	r.Duration(&cfg.RetryBase, "PRESSROOM_WEBHOOK_RETRY_BASE")
	r.Duration(&cfg.RetryMax, "PRESSROOM_WEBHOOK_RETRY_MAX")
	return cfg, r.Err()
}

// Validate names the variable to fix.
func (c Config) Validate() error {
	switch {
	case c.Interval <= 0:
		return errors.New("PRESSROOM_WEBHOOK_INTERVAL must be positive, e.g. 1s")
	case c.Concurrency < 1:
		return errors.New("PRESSROOM_WEBHOOK_CONCURRENCY: want at least 1")
	case c.Timeout <= 0:
		return errors.New("PRESSROOM_WEBHOOK_TIMEOUT must be positive, e.g. 10s")
	case c.RetryBase <= 0 || c.RetryMax < c.RetryBase:
		return errors.New("PRESSROOM_WEBHOOK_RETRY_BASE must be positive and at most PRESSROOM_WEBHOOK_RETRY_MAX")
	case c.Batch < 1:
		return errors.New("webhooks: the batch must be at least 1")
	}
	return c.Hooks.Validate()
}
