package database

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/schema"
)

// Config says how to reach Postgres.
type Config struct {
	// URL is the connection URL (PRESSROOM_DATABASE_URL), e.g.
	// postgres://pressroom:secret@127.0.0.1:5432/pressroom?sslmode=disable. Required: no default.
	URL string
	// MaxOpenConns caps open connections (PRESSROOM_DATABASE_MAX_OPEN_CONNS, default 20; 0 means no cap).
	MaxOpenConns int
	// MaxIdleConns caps idle connections (PRESSROOM_DATABASE_MAX_IDLE_CONNS, default 20, as many as
	// may be open: a connection closed for want of an idle slot is opened again by the next burst,
	// which costs a Postgres backend and a SCRAM handshake each time).
	MaxIdleConns int
	// ConnMaxLifetime recycles connections (PRESSROOM_DATABASE_CONN_MAX_LIFETIME, default 30m; 0 keeps them).
	ConnMaxLifetime time.Duration
	// NotifyPing is how often a connection following a notification channel (Follow) is checked
	// (PRESSROOM_DATABASE_NOTIFY_PING, default 2s): one gone silently is noticed within twice
	// that, and what its channel invalidates is read from Postgres until it is back. Zero is the default.
	NotifyPing time.Duration
}

// DefaultConfig has everything but the URL.
func DefaultConfig() Config {
	return Config{MaxOpenConns: 20, MaxIdleConns: 20, ConnMaxLifetime: 30 * time.Minute, NotifyPing: 2 * time.Second}
}

// LoadConfig reads the PRESSROOM_DATABASE_* variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.URL, "PRESSROOM_DATABASE_URL")
	r.Int(&cfg.MaxOpenConns, "PRESSROOM_DATABASE_MAX_OPEN_CONNS")
	r.Int(&cfg.MaxIdleConns, "PRESSROOM_DATABASE_MAX_IDLE_CONNS")
	r.Duration(&cfg.ConnMaxLifetime, "PRESSROOM_DATABASE_CONN_MAX_LIFETIME")
	r.Duration(&cfg.NotifyPing, "PRESSROOM_DATABASE_NOTIFY_PING")
	return cfg, r.Err()
}

// Validate reports the first setting that cannot work, naming its variable.
func (c Config) Validate() error {
	if c.URL == "" {
		return errors.New("PRESSROOM_DATABASE_URL is not set: want postgres://user:password@host:port/database?sslmode=disable")
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return errors.New("PRESSROOM_DATABASE_URL: want a postgres:// URL")
	}
	if c.MaxOpenConns < 0 || c.MaxIdleConns < 0 {
		return errors.New("PRESSROOM_DATABASE_MAX_OPEN_CONNS and PRESSROOM_DATABASE_MAX_IDLE_CONNS must not be negative")
	}
	if c.NotifyPing != 0 && (c.NotifyPing < 100*time.Millisecond || c.NotifyPing > time.Minute) {
		return errors.New("PRESSROOM_DATABASE_NOTIFY_PING: want 100ms to 1m")
	}
	return nil
}

// Open connects and pings, failing within ctx's deadline.
func Open(ctx context.Context, cfg Config) (*sqlx.DB, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	db, err := sqlx.Open("postgres", cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	db.SetMaxOpenConns(cfg.MaxOpenConns)
	db.SetMaxIdleConns(cfg.MaxIdleConns)
	db.SetConnMaxLifetime(cfg.ConnMaxLifetime)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("reach database: %w", err)
	}
	return db, nil
}

// Migrate applies every pending migration embedded in package schema. A session-level advisory
// lock makes concurrent callers wait for each other instead of applying a migration twice.
func Migrate(ctx context.Context, db *sqlx.DB, log *slog.Logger) error {
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	migrations, err := fs.Sub(schema.Migrations, "migrations")
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	provider, err := goose.NewProvider(goose.DialectPostgres, db.DB, migrations,
		goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	results, err := provider.Up(ctx)
	if err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	for _, r := range results {
		log.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "took", r.Duration)
	}
	return nil
}

// UniqueViolation reports whether err is Postgres refusing a duplicate key (SQLSTATE 23505);
// stores turn it into their own domain error.
func UniqueViolation(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && pqErr.Code == "23505"
}

// TextArray binds s as a Postgres text[]. A nil slice binds as an empty array rather than NULL
// (pq.Array's choice), so NOT NULL array columns accept a list nobody filled in.
func TextArray(s []string) pq.StringArray {
	if s == nil {
		return pq.StringArray{}
	}
	return s
}
