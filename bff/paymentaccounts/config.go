package paymentaccounts

import (
	"fmt"
	"time"

	"github.com/pressroom/pressroom/platform/env"
)

// Config is how long a confirmation link works.
type Config struct {
	// ConfirmTTL is how long the link e-mailed for a new or changed account works
	// (PRESSROOM_PAYMENT_ACCOUNT_CONFIRM_TTL, default 48h, at least 10m); the seller can send a new one.
	ConfirmTTL time.Duration
}

// DefaultConfig is two days.
func DefaultConfig() Config { return Config{ConfirmTTL: 48 * time.Hour} }

// LoadConfig reads PRESSROOM_PAYMENT_ACCOUNT_CONFIRM_TTL over the default.
func LoadConfig(lookup env.Lookup) (Config, error) {
	c := DefaultConfig()
	r := env.NewReader(lookup)
	r.Duration(&c.ConfirmTTL, "PRESSROOM_PAYMENT_ACCOUNT_CONFIRM_TTL")
	return c, r.Err()
}

// Validate names the variable to fix.
func (c Config) Validate() error {
	if c.ConfirmTTL < 10*time.Minute {
		return fmt.Errorf("PRESSROOM_PAYMENT_ACCOUNT_CONFIRM_TTL=%s: want at least 10m", c.ConfirmTTL)
	}
	return nil
}
