package imagelimit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Environment variables read by LoadConfig.
const (
	EnvMaxPixels = "PRESSROOM_IMAGE_MAX_PIXELS"
	EnvMaxBytes  = "PRESSROOM_IMAGE_MAX_BYTES"
)

// Defaults, sized for the largest print file Pressroom renders: a 3x
// all-over-print space of 13500x16200 pixels (4500x5400 at three times the
// resolution).
const (
	// DefaultMaxPixels is 13500*16200 = 218,700,000 rounded up to 220
	// million: such an image decodes to 880 MB as 8-bit RGBA, which fits the
	// renderer's 1.5 GB budget for a 3x export with room for the canvas it
	// is drawn onto only because artwork is usually smaller; it refuses
	// anything larger than the largest print file.
	DefaultMaxPixels int64 = 220_000_000
	// DefaultMaxBytes is 300 MiB. A 13500x16200 RGBA PNG of real artwork
	// compresses to 50-250 MB (flat designs far less, photographs more);
	// 300 MiB admits those and stops a decoder from reading an unbounded
	// stream. JPEG and WebP of the same size are much smaller.
	DefaultMaxBytes int64 = 300 << 20
)

// Config bounds one decode.
type Config struct {
	// MaxPixels is the largest width*height accepted. Default
	// DefaultMaxPixels; 0 means the default. Env PRESSROOM_IMAGE_MAX_PIXELS.
	MaxPixels int64
	// MaxBytes is the largest encoded size read. Default DefaultMaxBytes; 0
	// means the default. Env PRESSROOM_IMAGE_MAX_BYTES.
	MaxBytes int64
}

// DefaultConfig returns the limits for 3x all-over-print files.
func DefaultConfig() Config {
	return Config{MaxPixels: DefaultMaxPixels, MaxBytes: DefaultMaxBytes}
}

// LoadConfig returns DefaultConfig overridden by PRESSROOM_IMAGE_MAX_PIXELS
// and PRESSROOM_IMAGE_MAX_BYTES when lookup has them (decimal integers,
// underscores allowed: 220_000_000), validated. lookup is os.LookupEnv in the
// binaries (platform/env.OS), a map in tests.
func LoadConfig(lookup func(name string) (string, bool)) (Config, error) {
	cfg := DefaultConfig()
	for _, v := range []struct {
		name string
		dst  *int64
	}{
		{EnvMaxPixels, &cfg.MaxPixels},
		{EnvMaxBytes, &cfg.MaxBytes},
	} {
		s, ok := lookup(v.name)
		if !ok || strings.TrimSpace(s) == "" {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(s), 0, 64)
		if err != nil {
			return Config{}, fmt.Errorf("%s=%q: want a whole number: %w", v.name, s, errors.Unwrap(err))
		}
		*v.dst = n
	}
	return cfg, cfg.Validate()
}

// Validate reports a field out of range, naming its environment variable.
func (c Config) Validate() error {
	var errs []error
	if c.MaxPixels < 0 {
		errs = append(errs, fmt.Errorf("%s=%d: must be positive (0 for the default %d)", EnvMaxPixels, c.MaxPixels, DefaultMaxPixels))
	}
	if c.MaxBytes < 0 {
		errs = append(errs, fmt.Errorf("%s=%d: must be positive (0 for the default %d)", EnvMaxBytes, c.MaxBytes, DefaultMaxBytes))
	}
	return errors.Join(errs...)
}

// withDefaults replaces zero fields by their defaults.
func (c Config) withDefaults() Config {
	if c.MaxPixels == 0 {
		c.MaxPixels = DefaultMaxPixels
	}
	if c.MaxBytes == 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	return c
}
