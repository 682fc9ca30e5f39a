package klaviyo

import (
	"fmt"
	"net/url"

	"github.com/pressroom/pressroom/platform/env"
)

// DevSecretKey seals Klaviyo keys outside production when PRESSROOM_EMAIL_SECRET_KEY is unset. It
// is public (it is in the source), so keys sealed with it are not protected: production refuses it.
const DevSecretKey = "pressroom-dev-email-secret-key-not-secret-0123456789"

// MinSecretKeyLen is the shortest PRESSROOM_EMAIL_SECRET_KEY production accepts, in bytes.
const MinSecretKeyLen = 32

// Config is what the email sync and the bff's email settings share.
type Config struct {
	// KlaviyoBaseURL is where Klaviyo's API is reached (PRESSROOM_KLAVIYO_BASE_URL, default
	// https://a.klaviyo.com); tests point it at a fake.
	KlaviyoBaseURL string
	// SecretKey seals the stores' Klaviyo private keys at rest (PRESSROOM_EMAIL_SECRET_KEY).
	// Required in production and on a listen address other machines can reach (see ValidateKeys),
	// at least MinSecretKeyLen bytes and not DevSecretKey; empty elsewhere means DevSecretKey. Changing it makes stored keys unreadable: sellers must enter them again.
	SecretKey string
	// PageSize is how many subscribers one Klaviyo import job carries and how often progress is
	// recorded (PRESSROOM_EMAIL_SYNC_PAGE_SIZE, default 100, at most 10000).
	PageSize int
}

// DefaultConfig is Klaviyo's real API and pages of 100.
func DefaultConfig() Config {
	return Config{KlaviyoBaseURL: DefaultBaseURL, PageSize: 100}
}

// LoadConfig reads the variables named on Config's fields over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.KlaviyoBaseURL, "PRESSROOM_KLAVIYO_BASE_URL")
	r.String(&cfg.SecretKey, "PRESSROOM_EMAIL_SECRET_KEY")
	r.Int(&cfg.PageSize, "PRESSROOM_EMAIL_SYNC_PAGE_SIZE")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable. Production demands a
// real secret key.
func (c Config) Validate(production bool) error {
	u, err := url.Parse(c.KlaviyoBaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("PRESSROOM_KLAVIYO_BASE_URL=%q: want http(s)://host", c.KlaviyoBaseURL)
	}
	if err := c.ValidateKeys(env.Exposure{Production: production}); err != nil {
		return err
	}
	switch {
	case c.PageSize < 1 || c.PageSize > MaxProfilesPerJob:
		return fmt.Errorf("PRESSROOM_EMAIL_SYNC_PAGE_SIZE=%d: want 1 to %d", c.PageSize, MaxProfilesPerJob)
	}
	return nil
}

// ValidateKeys refuses an empty, short or development secret key when x requires real keys (see
// env.Exposure).
func (c Config) ValidateKeys(x env.Exposure) error {
	return x.CheckKey("PRESSROOM_EMAIL_SECRET_KEY", c.SecretKey, DevSecretKey, MinSecretKeyLen)
}

// Sealer is the Sealer of c's secret key (DevSecretKey when empty).
func (c Config) Sealer() (*Sealer, error) {
	key := c.SecretKey
	if key == "" {
		key = DevSecretKey
	}
	return NewSealer(key)
}
