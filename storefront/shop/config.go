package shop

import (
	"errors"
	"net"
	"strings"
	"time"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/storelink"
)

// devSigningKey signs order and cart recovery links in development and test; production must set
// its own.
const devSigningKey = storelink.DevSigningKey

// Config is the storefront's HTTP side.
type Config struct {
	// Addr is the listen address (PRESSROOM_STOREFRONT_ADDR, default 127.0.0.1:8082).
	Addr string
	// StoreDomain is the domain stores live under as {slug}.{StoreDomain} (PRESSROOM_STORE_DOMAIN,
	// default localhost, which browsers resolve to loopback for any sub-domain).
	StoreDomain string
	// SigningKey signs the order status links sent to buyers (PRESSROOM_STOREFRONT_SIGNING_KEY, a
	// fixed development key by default; at least 32 bytes and required in production).
	SigningKey string
	// PostsPerMinute caps the form and API posts (cart, checkout, payment) one client address may
	// make per minute in one storefront process (PRESSROOM_STOREFRONT_POSTS_PER_MINUTE, default 60;
	// 0 turns the cap off). Pages and images are not counted: a CDN serves those.
	PostsPerMinute int
	// PageCache is how long a rendered store home or product page is served again before it is
	// rendered anew (PRESSROOM_STOREFRONT_PAGE_CACHE, default 5s; 0 turns the cache off): a seller's
	// change shows within it.
	PageCache time.Duration
	// PhotoMaxBytes is the largest photo a buyer may upload for a personalized product
	// (PRESSROOM_STOREFRONT_PHOTO_MAX_BYTES, default 15 MiB).
	PhotoMaxBytes int64
	// PhotoWait is how long adding a photo waits for its check by the renderer before the page says
	// it is still being checked (PRESSROOM_STOREFRONT_PHOTO_WAIT, default 20s).
	PhotoWait time.Duration
	// UIDir is the built UI whose scripts the pages load, the personalization preview
	// (PRESSROOM_UI_DIR, default ui/dist; without a build the pages work without it).
	UIDir string
	// KeywordFlush is how often the searches counted in memory are added to the seller's Search
	// Keywords (PRESSROOM_STOREFRONT_KEYWORD_FLUSH, default 5s; 1s to 1h). A storefront stopped
	// gracefully writes what it holds first.
	KeywordFlush time.Duration
}

// DefaultConfig is the development configuration.
func DefaultConfig() Config {
	return Config{Addr: "127.0.0.1:8082", StoreDomain: "localhost", SigningKey: devSigningKey, PostsPerMinute: 60, PageCache: 5 * time.Second,
		PhotoMaxBytes: 15 << 20, PhotoWait: 20 * time.Second, UIDir: "ui/dist",
		KeywordFlush: 5 * time.Second}
}

// LoadConfig reads the PRESSROOM_STOREFRONT_* and PRESSROOM_STORE_DOMAIN variables over the defaults.
func LoadConfig(lookup env.Lookup) (Config, error) {
	cfg := DefaultConfig()
	r := env.NewReader(lookup)
	r.String(&cfg.Addr, "PRESSROOM_STOREFRONT_ADDR")
	r.String(&cfg.StoreDomain, "PRESSROOM_STORE_DOMAIN")
	r.String(&cfg.SigningKey, "PRESSROOM_STOREFRONT_SIGNING_KEY")
	r.Int(&cfg.PostsPerMinute, "PRESSROOM_STOREFRONT_POSTS_PER_MINUTE")
	r.Duration(&cfg.PageCache, "PRESSROOM_STOREFRONT_PAGE_CACHE")
	r.Int64(&cfg.PhotoMaxBytes, "PRESSROOM_STOREFRONT_PHOTO_MAX_BYTES")
	r.Duration(&cfg.PhotoWait, "PRESSROOM_STOREFRONT_PHOTO_WAIT")
	r.String(&cfg.UIDir, "PRESSROOM_UI_DIR")
	r.Duration(&cfg.KeywordFlush, "PRESSROOM_STOREFRONT_KEYWORD_FLUSH")
	cfg.StoreDomain = strings.ToLower(strings.Trim(cfg.StoreDomain, "."))
	return cfg, r.Err()
}

// Validate names the variable to fix.
func (c Config) Validate(production bool) error {
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return errors.New("PRESSROOM_STOREFRONT_ADDR: want host:port, e.g. 127.0.0.1:8082")
	}
	if c.StoreDomain == "" || strings.ContainsAny(c.StoreDomain, "/: ") {
		return errors.New("PRESSROOM_STORE_DOMAIN: want a domain name such as shops.example.com")
	}
	if c.PageCache < 0 || c.PageCache > time.Hour {
		return errors.New("PRESSROOM_STOREFRONT_PAGE_CACHE: want 0 (off) to 1h, e.g. 5s")
	}
	if c.PhotoMaxBytes < 1<<20 || c.PhotoMaxBytes > 100<<20 {
		return errors.New("PRESSROOM_STOREFRONT_PHOTO_MAX_BYTES: want 1 MiB to 100 MiB, e.g. 15728640")
	}
	if c.PhotoWait < time.Second || c.PhotoWait > 2*time.Minute {
		return errors.New("PRESSROOM_STOREFRONT_PHOTO_WAIT: want 1s to 2m, e.g. 20s")
	}
	if c.KeywordFlush < time.Second || c.KeywordFlush > time.Hour {
		return errors.New("PRESSROOM_STOREFRONT_KEYWORD_FLUSH: want 1s to 1h, e.g. 5s")
	}
	if c.PostsPerMinute < 0 {
		return errors.New("PRESSROOM_STOREFRONT_POSTS_PER_MINUTE: want 0 (no cap) or more")
	}
	if len(c.SigningKey) < 32 {
		return errors.New("PRESSROOM_STOREFRONT_SIGNING_KEY: want at least 32 bytes")
	}
	if production && c.SigningKey == devSigningKey {
		return errors.New("PRESSROOM_STOREFRONT_SIGNING_KEY: production needs its own key (openssl rand -hex 32)")
	}
	return nil
}
