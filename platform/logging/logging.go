// Package logging builds the structured (slog) logger every binary writes with.
package logging

import (
	"errors"
	"io"
	"log/slog"
	"strings"

	"github.com/pressroom/pressroom/platform/env"
)

// Config chooses level and format.
type Config struct {
	// Level is debug, info, warn or error (PRESSROOM_LOG_LEVEL, default info).
	Level string
	// Format is text or json (PRESSROOM_LOG_FORMAT, default text; json for log shippers).
	Format string
}

// DefaultConfig logs info and above as text.
func DefaultConfig() Config { return Config{Level: "info", Format: "text"} }

// LoadConfig reads PRESSROOM_LOG_* over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.Level, "PRESSROOM_LOG_LEVEL")
	r.String(&cfg.Format, "PRESSROOM_LOG_FORMAT")
	return cfg, r.Err()
}

// Validate reports a level or format that does not exist, naming its variable.
func (c Config) Validate() error {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.Level)); err != nil {
		return errors.New("PRESSROOM_LOG_LEVEL: want debug, info, warn or error")
	}
	if f := strings.ToLower(c.Format); f != "text" && f != "json" {
		return errors.New("PRESSROOM_LOG_FORMAT: want text or json")
	}
	return nil
}

// New builds the logger; cfg must be valid.
func New(cfg Config, w io.Writer) *slog.Logger {
	var l slog.Level
	l.UnmarshalText([]byte(cfg.Level))
	opts := &slog.HandlerOptions{Level: l}
	if strings.EqualFold(cfg.Format, "json") {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
