package customdomain

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/jmoiron/sqlx"
)

// ErrNotFound: no store_domains row with that id.
var ErrNotFound = errors.New("customdomain: no such domain")

// Failure is a check that found no proof, worded for the seller; it clears a domain's verification.
type Failure string

func (f Failure) Error() string { return string(f) }

// lookupError is a lookup that got no usable answer, worded for the seller; it proves nothing.
type lookupError string

func (e lookupError) Error() string { return string(e) }

// Checker looks up verification records and records each outcome on the domain's row.
type Checker struct {
	cfg      Config
	resolver *net.Resolver
	db       *sqlx.DB
}

// NewChecker asks cfg's resolver and records outcomes in db.
func NewChecker(cfg Config, db *sqlx.DB) (*Checker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if db == nil {
		return nil, errors.New("customdomain: database is required")
	}
	r := net.DefaultResolver
	if cfg.Resolver != "" {
		addr := cfg.Resolver
		// Go's own resolver, with every query sent to the configured server (UDP, and TCP when a
		// reply is truncated) instead of those of /etc/resolv.conf.
		r = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}}
	}
	return &Checker{cfg: cfg, resolver: r, db: db}, nil
}

// Lookup reports whether the TXT record at RecordName(domain) holds token: nil when one of its
// records is exactly token, a Failure when there is no such record, any other error when the
// lookup itself failed (the resolver did not answer, or answered with a server failure).
func (c *Checker) Lookup(ctx context.Context, domain, token string) error {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	name := RecordName(domain)
	// The trailing dot makes the name absolute: no search domain of resolv.conf is tried.
	txts, err := c.resolver.LookupTXT(ctx, name+".")
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return Failure("No TXT record was found at " + name + ". Create it with the value shown, then check again.")
	}
	if err != nil {
		return lookupError("The DNS lookup of " + name + " failed (" + trimLookup(err) + "). Pressroom tries again later.")
	}
	for _, t := range txts {
		if strings.TrimSpace(t) == token {
			return nil
		}
	}
	return Failure("The TXT record at " + name + " does not hold this domain's value. Set it to the value shown, then check again.")
}

// trimLookup drops the resolver's own wording of the name, already in the message.
func trimLookup(err error) string {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		if dnsErr.IsTimeout {
			return "no answer in time"
		}
		return dnsErr.Err
	}
	return err.Error()
}

// Status is a domain's state after a check.
type Status struct {
	Status string `db:"status"`
	Error  string `db:"check_error"`
}

// Check looks up the record of domain id and records the outcome: found, the domain is verified
// (from the first time it was); a Failure clears the verification; a failed lookup is recorded
// but leaves a verified domain verified, as the resolver's trouble proves nothing.
func (c *Checker) Check(ctx context.Context, id int64) (Status, error) {
	var row struct {
		Domain string `db:"domain"`
		Token  string `db:"token"`
	}
	err := c.db.GetContext(ctx, &row, `SELECT domain, token FROM store_domains WHERE id = $1`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Status{}, ErrNotFound
	} else if err != nil {
		return Status{}, fmt.Errorf("read domain %d: %w", id, err)
	}
	outcome, msg := "found", ""
	if err := c.Lookup(ctx, row.Domain, row.Token); err != nil {
		outcome, msg = "error", err.Error()
		if _, ok := errors.AsType[Failure](err); ok {
			outcome = "failed"
		}
	}
	const q = `
UPDATE store_domains SET checked_at = now(), check_error = $2,
    verified_at = CASE $3 WHEN 'found' THEN coalesce(verified_at, now()) WHEN 'failed' THEN NULL ELSE verified_at END
WHERE id = $1 AND token = $4
RETURNING status, check_error`
	var st Status
	err = c.db.GetContext(ctx, &st, q, id, msg, outcome, row.Token)
	if errors.Is(err, sql.ErrNoRows) {
		return Status{}, ErrNotFound
	} else if err != nil {
		return Status{}, fmt.Errorf("record check of domain %d: %w", id, err)
	}
	return st, nil
}
