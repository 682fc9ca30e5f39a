package publicurl

import (
	"errors"
	"net"
	"net/url"
	"strings"

	"github.com/pressroom/pressroom/platform/env"
)

// DefaultHTTPAddr is where the bff listens unless PRESSROOM_HTTP_ADDR says otherwise.
const DefaultHTTPAddr = "127.0.0.1:8080"

// Config is the dashboard's public address.
type Config struct {
	// URL is the dashboard's address as browsers reach it, without a trailing slash
	// (PRESSROOM_PUBLIC_URL). Unset, it is the bff's own address (PRESSROOM_HTTP_ADDR, a wildcard
	// host read as 127.0.0.1), which only a browser on the same machine can use.
	URL string
	// Explicit reports whether PRESSROOM_PUBLIC_URL was set; a production start demands it.
	Explicit bool
}

// ForAddr is the address of a bff listening at addr, as a browser on the same machine reaches it.
func ForAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + DefaultHTTPAddr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// LoadConfig reads PRESSROOM_PUBLIC_URL, else derives the address from PRESSROOM_HTTP_ADDR.
func LoadConfig(lookup env.Lookup) (Config, error) {
	r := env.NewReader(lookup)
	addr := DefaultHTTPAddr
	r.String(&addr, "PRESSROOM_HTTP_ADDR")
	cfg := Config{URL: ForAddr(addr)}
	var explicit string
	r.String(&explicit, "PRESSROOM_PUBLIC_URL")
	if explicit = strings.TrimSpace(explicit); explicit != "" {
		cfg.URL, cfg.Explicit = explicit, true
	}
	cfg.URL = strings.TrimRight(cfg.URL, "/")
	return cfg, r.Err()
}

// Validate names the variable to fix; production must say where browsers reach it.
func (c Config) Validate(production bool) error {
	if production && !c.Explicit {
		return errors.New("PRESSROOM_PUBLIC_URL is required in production: the address browsers use for the dashboard, " +
			"such as https://dashboard.example.com (every e-mailed link is built on it)")
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.RawQuery != "" || u.Fragment != "" {
		return errors.New("PRESSROOM_PUBLIC_URL: want an http(s) address such as https://dashboard.example.com")
	}
	return nil
}

// Link is the absolute address of path (starting with /) on the dashboard.
func (c Config) Link(path string) string { return c.URL + path }

// Host is the dashboard's host name, without port; "" when URL does not parse.
func (c Config) Host() string {
	u, err := url.Parse(c.URL)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
