package imageproxy

import (
	"errors"
	"net"
	"net/netip"
	"net/url"
	"time"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/netguard"
	"github.com/pressroom/pressroom/renderer/imageapi"
)

// DevKey signs proxy tokens outside production when PRESSROOM_IMAGE_PROXY_KEY is unset. It is
// public (it is in the source), so tokens signed with it protect nothing: production refuses it.
const DevKey = "pressroom-dev-image-proxy-key-not-secret-0123456789"

// MinKeyLen is the shortest PRESSROOM_IMAGE_PROXY_KEY production accepts, in bytes.
const MinKeyLen = 32

// Config tunes the image proxy.
type Config struct {
	// Key is the HMAC-SHA256 secret of the url tokens (PRESSROOM_IMAGE_PROXY_KEY). Required in
	// production and on a listen address other machines can reach (see ValidateKeys), at least
	// MinKeyLen bytes and not DevKey; empty elsewhere means DevKey.
	Key string
	// TokenTTL is how long a signed address works at least (PRESSROOM_IMAGE_PROXY_TOKEN_TTL, default
	// 168h). Expiries are rounded up to the next whole UTC day, so an address signed twice in a day
	// is the same address and browsers cache it; a token thus lives between TTL and TTL+24h.
	TokenTTL time.Duration
	// Timeout caps one whole upstream fetch, redirects and body included (PRESSROOM_IMAGE_PROXY_TIMEOUT,
	// default 10s).
	Timeout time.Duration
	// MaxBytes caps an upstream body (PRESSROOM_IMAGE_PROXY_MAX_BYTES, default 20 MiB).
	MaxBytes int64
	// MaxPixels caps the declared width x height of an image, checked from its header before any
	// pixel is decoded (PRESSROOM_IMAGE_PROXY_MAX_PIXELS, default 40 000 000: 160 MB as RGBA).
	MaxPixels int64
	// MaxRedirects is how many redirects one fetch follows, each re-checked
	// (PRESSROOM_IMAGE_PROXY_MAX_REDIRECTS, default 3; 0 follows none).
	MaxRedirects int
	// CacheBytes bounds the in-memory LRU of fetched images and thumbnails
	// (PRESSROOM_IMAGE_PROXY_CACHE_BYTES, default 128 MiB; 0 disables the cache).
	CacheBytes int64
	// MaxAge is the Cache-Control max-age of proxied images (PRESSROOM_IMAGE_PROXY_MAX_AGE, default 24h).
	MaxAge time.Duration
	// AnyPort lets the proxy dial any port of a public address (PRESSROOM_IMAGE_PROXY_ANY_PORT,
	// default false: only 80 and 443, so the proxy cannot be used to probe other services of
	// public hosts).
	AnyPort bool
	// Allow are address ranges the proxy may dial although they are not public
	// (PRESSROOM_IMAGE_PROXY_ALLOW, comma-separated CIDR prefixes or single addresses, default none):
	// an image host on the internal network, say. The port rule still applies.
	Allow []netip.Prefix
	// DNSServer is the host:port of the DNS server host names are resolved with
	// (PRESSROOM_IMAGE_PROXY_DNS, default empty: the system's resolver), e.g. a filtering resolver
	// kept for outbound fetches. Whatever it answers, the dialled IP is checked.
	DNSServer string
	// RendererURL is the renderer's HTTP server, which decodes and resizes the images
	// (PRESSROOM_RENDERER_URL, default http://127.0.0.1:8081; in compose http://renderer:8081).
	RendererURL string
	// RendererKey authenticates the bff to the renderer (PRESSROOM_RENDERER_KEY, the same value on
	// both; required, at least 32 bytes, where the proxy key is).
	RendererKey string
	// MaxFetches caps upstream fetches in flight at once in this process, whoever asks
	// (PRESSROOM_IMAGE_PROXY_MAX_FETCHES, default 16): a fetch beyond it is answered 503 with
	// Retry-After at once rather than queued, so a burst of distinct addresses cannot hold
	// connections and goroutines without bound.
	MaxFetches int
	// ClientRate is how many proxied images one client address may ask for per RateWindow
	// (PRESSROOM_IMAGE_PROXY_CLIENT_RATE, default 600; 0 means no limit). The proxy route is public
	// (img tags send no bearer token), so its callers are told apart by address; cached answers count too.
	ClientRate int64
	// AccountRate is how many addresses one signed-in account may have signed per RateWindow
	// (PRESSROOM_IMAGE_PROXY_ACCOUNT_RATE, default 300; 0 means no limit).
	AccountRate int64
	// RateWindow is the window both rates count in, in Redis so that every bff process shares the
	// counts (PRESSROOM_IMAGE_PROXY_RATE_WINDOW, default 1m).
	RateWindow time.Duration
}

// DefaultConfig is 7-day tokens, 10 s and 20 MiB per fetch, 3 redirects, ports 80 and 443, a
// 128 MiB cache, a day of browser caching, and 600 images per client address and 300 signed
// addresses per account a minute.
func DefaultConfig() Config {
	return Config{
		TokenTTL: 7 * 24 * time.Hour, Timeout: 10 * time.Second, MaxBytes: 20 << 20,
		MaxPixels: 40_000_000, MaxRedirects: 3, CacheBytes: 128 << 20, MaxAge: 24 * time.Hour,
		MaxFetches: 16, RendererURL: "http://127.0.0.1:8081", ClientRate: 600, AccountRate: 300, RateWindow: time.Minute,
	}
}

// LoadConfig reads the PRESSROOM_IMAGE_PROXY_* variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.Key, "PRESSROOM_IMAGE_PROXY_KEY")
	r.Duration(&cfg.TokenTTL, "PRESSROOM_IMAGE_PROXY_TOKEN_TTL")
	r.Duration(&cfg.Timeout, "PRESSROOM_IMAGE_PROXY_TIMEOUT")
	r.Int64(&cfg.MaxBytes, "PRESSROOM_IMAGE_PROXY_MAX_BYTES")
	r.Int64(&cfg.MaxPixels, "PRESSROOM_IMAGE_PROXY_MAX_PIXELS")
	r.Int(&cfg.MaxRedirects, "PRESSROOM_IMAGE_PROXY_MAX_REDIRECTS")
	r.Int64(&cfg.CacheBytes, "PRESSROOM_IMAGE_PROXY_CACHE_BYTES")
	r.Duration(&cfg.MaxAge, "PRESSROOM_IMAGE_PROXY_MAX_AGE")
	r.Bool(&cfg.AnyPort, "PRESSROOM_IMAGE_PROXY_ANY_PORT")
	var allow string
	r.String(&allow, "PRESSROOM_IMAGE_PROXY_ALLOW")
	r.String(&cfg.DNSServer, "PRESSROOM_IMAGE_PROXY_DNS")
	r.String(&cfg.RendererURL, "PRESSROOM_RENDERER_URL")
	r.String(&cfg.RendererKey, imageapi.KeyVar)
	r.Int(&cfg.MaxFetches, "PRESSROOM_IMAGE_PROXY_MAX_FETCHES")
	r.Int64(&cfg.ClientRate, "PRESSROOM_IMAGE_PROXY_CLIENT_RATE")
	r.Int64(&cfg.AccountRate, "PRESSROOM_IMAGE_PROXY_ACCOUNT_RATE")
	r.Duration(&cfg.RateWindow, "PRESSROOM_IMAGE_PROXY_RATE_WINDOW")
	if err := r.Err(); err != nil {
		return cfg, err
	}
	var err error
	cfg.Allow, err = netguard.ParseAllow("PRESSROOM_IMAGE_PROXY_ALLOW", allow)
	return cfg, err
}

// ValidateKeys refuses an empty, short or development key when x requires real keys (see
// env.Exposure).
func (c Config) ValidateKeys(x env.Exposure) error {
	return errors.Join(x.CheckKey("PRESSROOM_IMAGE_PROXY_KEY", c.Key, DevKey, MinKeyLen),
		x.CheckKey(imageapi.KeyVar, c.RendererKey, imageapi.DevKey, imageapi.MinKeyLen))
}

// Validate reports the first setting that cannot work, naming its variable. Production demands a
// real key.
func (c Config) Validate(production bool) error {
	if err := c.ValidateKeys(env.Exposure{Production: production}); err != nil {
		return err
	}
	switch {
	case c.TokenTTL < time.Minute:
		return errors.New("PRESSROOM_IMAGE_PROXY_TOKEN_TTL must be at least 1m")
	case c.Timeout < 100*time.Millisecond:
		return errors.New("PRESSROOM_IMAGE_PROXY_TIMEOUT must be at least 100ms")
	case c.MaxBytes < 1:
		return errors.New("PRESSROOM_IMAGE_PROXY_MAX_BYTES must be at least 1")
	case c.MaxPixels < 1:
		return errors.New("PRESSROOM_IMAGE_PROXY_MAX_PIXELS must be at least 1")
	case c.MaxRedirects < 0 || c.MaxRedirects > 10:
		return errors.New("PRESSROOM_IMAGE_PROXY_MAX_REDIRECTS: want 0 to 10")
	case c.CacheBytes < 0:
		return errors.New("PRESSROOM_IMAGE_PROXY_CACHE_BYTES must not be negative (0 disables the cache)")
	case c.MaxAge < 0:
		return errors.New("PRESSROOM_IMAGE_PROXY_MAX_AGE must not be negative")
	case c.DNSServer != "" && !validHostPort(c.DNSServer):
		return errors.New("PRESSROOM_IMAGE_PROXY_DNS: want host:port, e.g. 10.0.0.2:53")
	case !validRendererURL(c.RendererURL):
		return errors.New("PRESSROOM_RENDERER_URL: want an http(s) address such as http://127.0.0.1:8081")
	case c.MaxFetches < 1:
		return errors.New("PRESSROOM_IMAGE_PROXY_MAX_FETCHES must be at least 1")
	case c.ClientRate < 0:
		return errors.New("PRESSROOM_IMAGE_PROXY_CLIENT_RATE must not be negative (0 means no limit)")
	case c.AccountRate < 0:
		return errors.New("PRESSROOM_IMAGE_PROXY_ACCOUNT_RATE must not be negative (0 means no limit)")
	case c.RateWindow < time.Second:
		return errors.New("PRESSROOM_IMAGE_PROXY_RATE_WINDOW must be at least 1s")
	}
	return nil
}

func validHostPort(s string) bool {
	h, p, err := net.SplitHostPort(s)
	return err == nil && h != "" && p != ""
}

func validRendererURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
