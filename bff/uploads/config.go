package uploads

import (
	"errors"
	"time"

	"github.com/pressroom/pressroom/platform/env"
)

// Config tunes uploads.
type Config struct {
	// SignTTL is how long a pre-signed PUT of a signed-in user works (PRESSROOM_UPLOAD_SIGN_TTL,
	// default 15m).
	SignTTL time.Duration
	// MaxBytes is the largest upload accepted at ingest (PRESSROOM_UPLOAD_MAX_BYTES, default 200 MiB,
	// the blob store's default PUT cap); a larger one is deleted and refused.
	MaxBytes int64
	// MaxDirectBytes caps the body of POST /api/upload (PRESSROOM_UPLOAD_MAX_DIRECT_BYTES, default
	// 25 MiB); larger files go through the pre-signed URL.
	MaxDirectBytes int64
	// PublicSignTTL is how long a public pre-signed PUT works (PRESSROOM_UPLOAD_PUBLIC_SIGN_TTL,
	// default 5m).
	PublicSignTTL time.Duration
	// PublicMaxBytes is the largest public upload accepted at ingest
	// (PRESSROOM_UPLOAD_PUBLIC_MAX_BYTES, default 10 MiB).
	PublicMaxBytes int64
	// PublicPerHour is how many public URLs one client address may get per hour
	// (PRESSROOM_UPLOAD_PUBLIC_PER_HOUR, default 30).
	PublicPerHour int
	// PublicBytesPerDay caps the bytes one client address may be signed for without a session in
	// a day (PRESSROOM_UPLOAD_PUBLIC_BYTES_PER_DAY, default 100 MiB). Each public URL reserves its
	// size cap when it is signed, whether or not the file arrives.
	PublicBytesPerDay int64
	// SweepGrace is how long after its signature expired an upload never completed is deleted
	// (PRESSROOM_UPLOAD_SWEEP_GRACE, default 1h).
	SweepGrace time.Duration
	// FileURLTTL is the lifetime of the signed GET that /api/files redirects to
	// (PRESSROOM_FILE_URL_TTL, default 1h).
	FileURLTTL time.Duration
	// VariantWait is how long a first request for a variant waits for the renderer before it
	// answers 503 (PRESSROOM_VARIANT_WAIT, default 30s).
	VariantWait time.Duration
	// VariantsPerMinute is how many variants not made yet one client address may ask for per
	// minute (PRESSROOM_VARIANT_PER_MINUTE, default 120; 0 means no limit): each queues a render.
	// Variants already made are served without counting.
	VariantsPerMinute int64
}

// DefaultConfig is the configuration described on each field.
func DefaultConfig() Config {
	return Config{
		SignTTL: 15 * time.Minute, MaxBytes: 200 << 20, MaxDirectBytes: 25 << 20,
		PublicSignTTL: 5 * time.Minute, PublicMaxBytes: 10 << 20, PublicPerHour: 30,
		PublicBytesPerDay: 100 << 20, SweepGrace: time.Hour,
		FileURLTTL: time.Hour, VariantWait: 30 * time.Second, VariantsPerMinute: 120,
	}
}

// LoadConfig reads the PRESSROOM_UPLOAD_* variables and their kin over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.Duration(&cfg.SignTTL, "PRESSROOM_UPLOAD_SIGN_TTL")
	r.Int64(&cfg.MaxBytes, "PRESSROOM_UPLOAD_MAX_BYTES")
	r.Int64(&cfg.MaxDirectBytes, "PRESSROOM_UPLOAD_MAX_DIRECT_BYTES")
	r.Duration(&cfg.PublicSignTTL, "PRESSROOM_UPLOAD_PUBLIC_SIGN_TTL")
	r.Int64(&cfg.PublicMaxBytes, "PRESSROOM_UPLOAD_PUBLIC_MAX_BYTES")
	r.Int(&cfg.PublicPerHour, "PRESSROOM_UPLOAD_PUBLIC_PER_HOUR")
	r.Int64(&cfg.PublicBytesPerDay, "PRESSROOM_UPLOAD_PUBLIC_BYTES_PER_DAY")
	r.Duration(&cfg.SweepGrace, "PRESSROOM_UPLOAD_SWEEP_GRACE")
	r.Duration(&cfg.FileURLTTL, "PRESSROOM_FILE_URL_TTL")
	r.Duration(&cfg.VariantWait, "PRESSROOM_VARIANT_WAIT")
	r.Int64(&cfg.VariantsPerMinute, "PRESSROOM_VARIANT_PER_MINUTE")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	switch {
	case c.SignTTL < time.Second || c.SignTTL > 7*24*time.Hour:
		return errors.New("PRESSROOM_UPLOAD_SIGN_TTL: want 1s to 168h")
	case c.PublicSignTTL < time.Second || c.PublicSignTTL > 7*24*time.Hour:
		return errors.New("PRESSROOM_UPLOAD_PUBLIC_SIGN_TTL: want 1s to 168h")
	case c.FileURLTTL < time.Minute || c.FileURLTTL > 7*24*time.Hour:
		return errors.New("PRESSROOM_FILE_URL_TTL: want 1m to 168h")
	case c.MaxBytes <= 0:
		return errors.New("PRESSROOM_UPLOAD_MAX_BYTES must be positive")
	case c.MaxDirectBytes <= 0:
		return errors.New("PRESSROOM_UPLOAD_MAX_DIRECT_BYTES must be positive")
	case c.PublicMaxBytes <= 0:
		return errors.New("PRESSROOM_UPLOAD_PUBLIC_MAX_BYTES must be positive")
	case c.PublicPerHour <= 0:
		return errors.New("PRESSROOM_UPLOAD_PUBLIC_PER_HOUR must be positive")
	case c.PublicBytesPerDay < c.PublicMaxBytes:
		return errors.New("PRESSROOM_UPLOAD_PUBLIC_BYTES_PER_DAY must be at least PRESSROOM_UPLOAD_PUBLIC_MAX_BYTES")
	case c.SweepGrace < 0:
		return errors.New("PRESSROOM_UPLOAD_SWEEP_GRACE must not be negative")
	case c.VariantWait <= 0:
		return errors.New("PRESSROOM_VARIANT_WAIT must be positive")
	case c.VariantsPerMinute < 0:
		return errors.New("PRESSROOM_VARIANT_PER_MINUTE must not be negative (0 means no limit)")
	}
	return nil
}
