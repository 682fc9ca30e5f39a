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
}

// DefaultConfig asks the system's resolvers.
func DefaultConfig() Config { return Config{Timeout: 5 * time.Second, StoreDomain: "localhost"} }

// LoadConfig reads PRESSROOM_DNS_RESOLVER, PRESSROOM_DNS_TIMEOUT and PRESSROOM_STORE_DOMAIN over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.Resolver, "PRESSROOM_DNS_RESOLVER")
	r.Duration(&cfg.Timeout, "PRESSROOM_DNS_TIMEOUT")
	r.String(&cfg.StoreDomain, "PRESSROOM_STORE_DOMAIN")
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
	return nil
}
