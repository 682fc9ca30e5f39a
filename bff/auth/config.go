package auth

import (
	"errors"
	"net/url"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pressroom/pressroom/platform/env"
)

// Config tunes sessions, password hashing and login throttling.
type Config struct {
	// SessionTTL is how long a token stays valid (PRESSROOM_SESSION_TTL, default 168h, matching the
	// UI cookie's max age of 604800 s).
	SessionTTL time.Duration
	// BcryptCost is the password hashing cost (PRESSROOM_BCRYPT_COST, default 12, at least 10).
	BcryptCost int
	// ThrottleWindow is the span over which failed logins are counted (PRESSROOM_LOGIN_THROTTLE_WINDOW,
	// default 15m); the counters expire a window after their first failure.
	ThrottleWindow time.Duration
	// MaxFailuresPerAccount is how many failed logins one e-mail address gets in a window
	// (PRESSROOM_LOGIN_MAX_FAILURES_PER_ACCOUNT, default 5).
	MaxFailuresPerAccount int
	// MaxFailuresPerClient is how many failed logins one client address gets in a window
	// (PRESSROOM_LOGIN_MAX_FAILURES_PER_CLIENT, default 20).
	MaxFailuresPerClient int
	// PublicURL is the dashboard's address, the base of links sent by e-mail (PRESSROOM_PUBLIC_URL,
	// default empty: http:// and the bff's PRESSROOM_HTTP_ADDR, filled in by the bff's config).
	PublicURL string
	// ResetTTL is how long a password-reset link works (PRESSROOM_PASSWORD_RESET_TTL, default 1h).
	ResetTTL time.Duration
	// VerifyTTL is how long an e-mail verification link works (PRESSROOM_EMAIL_VERIFY_TTL, default 48h).
	VerifyTTL time.Duration
	// TFAIssuer names the account in authenticator apps (PRESSROOM_TFA_ISSUER, default Pressroom).
	TFAIssuer string
}

// DefaultConfig is 7-day sessions, bcrypt cost 12, 5 failures per account and 20 per client per 15 minutes.
func DefaultConfig() Config {
	return Config{
		SessionTTL: 7 * 24 * time.Hour, BcryptCost: 12, ThrottleWindow: 15 * time.Minute,
		MaxFailuresPerAccount: 5, MaxFailuresPerClient: 20,
		ResetTTL: time.Hour, VerifyTTL: 48 * time.Hour, TFAIssuer: "Pressroom",
	}
}

// LoadConfig reads the session and login variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Duration(&cfg.SessionTTL, "PRESSROOM_SESSION_TTL")
	r.Int(&cfg.BcryptCost, "PRESSROOM_BCRYPT_COST")
	r.Duration(&cfg.ThrottleWindow, "PRESSROOM_LOGIN_THROTTLE_WINDOW")
	r.Int(&cfg.MaxFailuresPerAccount, "PRESSROOM_LOGIN_MAX_FAILURES_PER_ACCOUNT")
	r.Int(&cfg.MaxFailuresPerClient, "PRESSROOM_LOGIN_MAX_FAILURES_PER_CLIENT")
	r.String(&cfg.PublicURL, "PRESSROOM_PUBLIC_URL")
	r.Duration(&cfg.ResetTTL, "PRESSROOM_PASSWORD_RESET_TTL")
	r.Duration(&cfg.VerifyTTL, "PRESSROOM_EMAIL_VERIFY_TTL")
	r.String(&cfg.TFAIssuer, "PRESSROOM_TFA_ISSUER")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	switch {
	case c.SessionTTL < time.Minute:
		return errors.New("PRESSROOM_SESSION_TTL must be at least 1m")
	case c.BcryptCost < 10 || c.BcryptCost > bcrypt.MaxCost:
		return errors.New("PRESSROOM_BCRYPT_COST: want 10 to 31")
	case c.ThrottleWindow < time.Second:
		return errors.New("PRESSROOM_LOGIN_THROTTLE_WINDOW must be at least 1s")
	case c.MaxFailuresPerAccount < 1:
		return errors.New("PRESSROOM_LOGIN_MAX_FAILURES_PER_ACCOUNT must be at least 1")
	case c.MaxFailuresPerClient < 1:
		return errors.New("PRESSROOM_LOGIN_MAX_FAILURES_PER_CLIENT must be at least 1")
	case c.ResetTTL < time.Minute:
		return errors.New("PRESSROOM_PASSWORD_RESET_TTL must be at least 1m")
	case c.VerifyTTL < time.Minute:
		return errors.New("PRESSROOM_EMAIL_VERIFY_TTL must be at least 1m")
	case c.TFAIssuer == "" || strings.ContainsAny(c.TFAIssuer, ":"):
		return errors.New("PRESSROOM_TFA_ISSUER must be set and must not contain a colon")
	}
	if c.PublicURL != "" {
		u, err := url.Parse(c.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return errors.New("PRESSROOM_PUBLIC_URL: want an http(s) address such as https://dashboard.example.com")
		}
	}
	return nil
}
