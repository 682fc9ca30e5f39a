package customdomain

import (
	"errors"
	"net"
	"strings"
	"time"

	"github.com/pressroom/pressroom/platform/env"
)

// Config is how domains are checked.
type Config struct {
	// Resolver is the DNS server TXT records are asked of, host:port (PRESSROOM_DNS_RESOLVER;
	// empty, the default, uses the system's resolvers from /etc/resolv.conf).
	Resolver string
	// Timeout bounds one check's lookup (PRESSROOM_DNS_TIMEOUT, default 5s).
	Timeout time.Duration
	// StoreDomain is the domain stores live under as {slug}.{StoreDomain} (PRESSROOM_STORE_DOMAIN,
	// the storefront's variable, default localhost): it and the names under it are the platform's.
	StoreDomain string
	// RecheckEvery is how often the worker checks again the domains not verified yet, for a week
	// after they were added (PRESSROOM_DOMAIN_RECHECK_INTERVAL, default 5m). Verified domains are
	// checked again once a day whatever it is.
	RecheckEvery time.Duration
}

// DefaultConfig asks the system's resolvers.
func DefaultConfig() Config {
	return Config{Timeout: 5 * time.Second, StoreDomain: "localhost", RecheckEvery: 5 * time.Minute}
}

// LoadConfig reads PRESSROOM_DNS_RESOLVER, PRESSROOM_DNS_TIMEOUT, PRESSROOM_STORE_DOMAIN and
// PRESSROOM_DOMAIN_RECHECK_INTERVAL over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.Resolver, "PRESSROOM_DNS_RESOLVER")
	r.Duration(&cfg.Timeout, "PRESSROOM_DNS_TIMEOUT")
	r.String(&cfg.StoreDomain, "PRESSROOM_STORE_DOMAIN")
	r.Duration(&cfg.RecheckEvery, "PRESSROOM_DOMAIN_RECHECK_INTERVAL")
	cfg.StoreDomain = strings.ToLower(strings.Trim(cfg.StoreDomain, "."))
	return cfg, r.Err()
}

// Validate names the variable to fix.
func (c Config) Validate() error {
	if c.Resolver != "" {
		if _, port, err := net.SplitHostPort(c.Resolver); err != nil || port == "" {
			return errors.New("PRESSROOM_DNS_RESOLVER: want host:port of a DNS server, e.g. 127.0.0.1:53, or empty for the system's")
		}
	}
	if c.Timeout <= 0 || c.Timeout > time.Minute {
		return errors.New("PRESSROOM_DNS_TIMEOUT: want more than 0 and at most 1m, e.g. 5s")
	}
	if c.RecheckEvery < time.Second || c.RecheckEvery > 24*time.Hour {
		return errors.New("PRESSROOM_DOMAIN_RECHECK_INTERVAL: want 1s to 24h, e.g. 5m")
	}
	return nil
}
