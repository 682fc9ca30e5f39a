package auth

import (
	"errors"
	"runtime"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/publicurl"
)

// Config tunes sessions, password hashing and the throttles of sign-in and account calls.
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
	// Public is the dashboard's address, the base of links sent by e-mail (platform/publicurl).
	Public publicurl.Config
	// ResetTTL is how long a password-reset link works (PRESSROOM_PASSWORD_RESET_TTL, default 1h).
	ResetTTL time.Duration
	// VerifyTTL is how long an e-mail verification link works (PRESSROOM_EMAIL_VERIFY_TTL, default 48h).
	VerifyTTL time.Duration
	// TFAIssuer names the account in authenticator apps (PRESSROOM_TFA_ISSUER, default Pressroom).
	TFAIssuer string
	// CallsWindow is the span over which anonymous account calls (register, forgot-password,
	// reset-password) are counted (PRESSROOM_ACCOUNT_CALLS_WINDOW, default 1h).
	CallsWindow time.Duration
	// CallsPerClient is how many of each of those calls one client address may make in a window
	// (PRESSROOM_ACCOUNT_CALLS_PER_CLIENT, default 20).
	CallsPerClient int
	// CallsGlobal is how many of each of those calls all clients together may make in a window
	// (PRESSROOM_ACCOUNT_CALLS_GLOBAL, default 2000).
	CallsGlobal int
	// HashConcurrency is how many bcrypt hashes or comparisons run at once in the process
	// (PRESSROOM_PASSWORD_HASH_CONCURRENCY, default the number of CPUs).
	HashConcurrency int
	// HashWait is how long a request waits for a hashing slot before a 503
	// (PRESSROOM_PASSWORD_HASH_WAIT, default 3s).
	HashWait time.Duration
	// ImpersonationTTL is how long an admin's impersonation session lasts (PRESSROOM_IMPERSONATION_TTL,
	// default 1h).
	ImpersonationTTL time.Duration
	// HandoffTTL is how long a one-time sign-in code for another dashboard host works
	// (PRESSROOM_HANDOFF_CODE_TTL, default 1m).
	HandoffTTL time.Duration
}

// DefaultConfig is 7-day sessions, bcrypt cost 12, 5 failures per account and 20 per client per 15
// minutes, 20 account calls per client and 2000 in all per hour, 1-hour impersonation.
func DefaultConfig() Config {
	return Config{
		SessionTTL: 7 * 24 * time.Hour, BcryptCost: 12, ThrottleWindow: 15 * time.Minute,
		MaxFailuresPerAccount: 5, MaxFailuresPerClient: 20,
		ResetTTL: time.Hour, VerifyTTL: 48 * time.Hour, TFAIssuer: "Pressroom",
		CallsWindow: time.Hour, CallsPerClient: 20, CallsGlobal: 2000,
		HashConcurrency: runtime.NumCPU(), HashWait: 3 * time.Second,
		ImpersonationTTL: time.Hour, HandoffTTL: time.Minute,
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
	r.Duration(&cfg.ResetTTL, "PRESSROOM_PASSWORD_RESET_TTL")
	r.Duration(&cfg.VerifyTTL, "PRESSROOM_EMAIL_VERIFY_TTL")
	r.String(&cfg.TFAIssuer, "PRESSROOM_TFA_ISSUER")
	r.Duration(&cfg.CallsWindow, "PRESSROOM_ACCOUNT_CALLS_WINDOW")
	r.Int(&cfg.CallsPerClient, "PRESSROOM_ACCOUNT_CALLS_PER_CLIENT")
	r.Int(&cfg.CallsGlobal, "PRESSROOM_ACCOUNT_CALLS_GLOBAL")
	r.Int(&cfg.HashConcurrency, "PRESSROOM_PASSWORD_HASH_CONCURRENCY")
	r.Duration(&cfg.HashWait, "PRESSROOM_PASSWORD_HASH_WAIT")
	r.Duration(&cfg.ImpersonationTTL, "PRESSROOM_IMPERSONATION_TTL")
	r.Duration(&cfg.HandoffTTL, "PRESSROOM_HANDOFF_CODE_TTL")
	if err := r.Err(); err != nil {
		return cfg, err
	}
	var err error
	cfg.Public, err = publicurl.LoadConfig(lookup)
	return cfg, err
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
	case c.CallsWindow < time.Second:
		return errors.New("PRESSROOM_ACCOUNT_CALLS_WINDOW must be at least 1s")
	case c.CallsPerClient < 1:
		return errors.New("PRESSROOM_ACCOUNT_CALLS_PER_CLIENT must be at least 1")
	case c.CallsGlobal < c.CallsPerClient:
		return errors.New("PRESSROOM_ACCOUNT_CALLS_GLOBAL must be at least PRESSROOM_ACCOUNT_CALLS_PER_CLIENT")
	case c.HashConcurrency < 1:
		return errors.New("PRESSROOM_PASSWORD_HASH_CONCURRENCY must be at least 1")
	case c.HashWait < 0:
		return errors.New("PRESSROOM_PASSWORD_HASH_WAIT must not be negative")
	case c.ImpersonationTTL < time.Minute || c.ImpersonationTTL > c.SessionTTL:
		return errors.New("PRESSROOM_IMPERSONATION_TTL: want 1m up to PRESSROOM_SESSION_TTL")
	case c.HandoffTTL < time.Second || c.HandoffTTL > 10*time.Minute:
		return errors.New("PRESSROOM_HANDOFF_CODE_TTL: want 1s to 10m")
	}
	return c.Public.Validate(false)
}
