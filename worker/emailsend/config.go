package emailsend

import (
	"errors"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/publicurl"
)

// Config is how campaigns are sent.
type Config struct {
	// Public is the dashboard's address, the base of the unsubscribe links in campaign mail
	// (platform/publicurl: PRESSROOM_PUBLIC_URL, the same value the bff builds its links on).
	Public publicurl.Config
	// BatchSize is how many recipients one claim takes (PRESSROOM_EMAIL_SEND_BATCH, default 50).
	BatchSize int
}

// DefaultConfig is the configuration of a local stack.
func DefaultConfig() Config {
	return Config{Public: publicurl.Config{URL: publicurl.ForAddr(publicurl.DefaultHTTPAddr)}, BatchSize: 50}
}

// LoadConfig reads the variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Int(&cfg.BatchSize, "PRESSROOM_EMAIL_SEND_BATCH")
	if err := r.Err(); err != nil {
		return cfg, err
	}
	var err error
	cfg.Public, err = publicurl.LoadConfig(lookup)
	return cfg, err
}

// Validate names the variable to fix; production must name the public address.
func (c Config) Validate(production bool) error {
	if err := c.Public.Validate(production); err != nil {
		return err
	}
	if c.BatchSize < 1 || c.BatchSize > 1000 {
		return errors.New("PRESSROOM_EMAIL_SEND_BATCH: want 1 to 1000")
	}
	return nil
}
