package imageproxy

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/sync/singleflight"

	"github.com/pressroom/pressroom/platform/netguard"
	"github.com/pressroom/pressroom/platform/ratelimit"
	"github.com/pressroom/pressroom/renderer/imageapi"
)

// Path is where the proxy is mounted; SignPath signs addresses for it.
const (
	Path     = "/api/image-proxy"
	SignPath = "/api/image-proxy/sign"
)

// Errors of a fetch, each answered with its own status (see routes.go).
var (
	// ErrTooLarge: the upstream body is over Config.MaxBytes.
	ErrTooLarge = errors.New("imageproxy: upstream body too large")
	// ErrUpstream: the host could not be reached or did not answer 200.
	ErrUpstream = errors.New("imageproxy: upstream failed")
	// ErrTimeout: the fetch took longer than Config.Timeout.
	ErrTimeout = errors.New("imageproxy: upstream timed out")
	// ErrBusy: Config.MaxFetches fetches are in flight already.
	ErrBusy = errors.New("imageproxy: too many fetches in flight")
)

// Errors of the renderer's image work, answered like the proxy's own.
var (
	ErrNotImage      = imageapi.ErrNotImage
	ErrTooManyPixels = imageapi.ErrTooManyPixels
	// ErrRendererDown: the renderer could not be reached or failed.
	ErrRendererDown = imageapi.ErrUnavailable
)

// Proxy fetches images from public hosts for the UI, signs addresses for it and keeps what it
// fetched in a bounded in-memory cache.
type Proxy struct {
	cfg    Config
	signer signer
	client *http.Client
	// renderer decodes, checks and resizes what client fetched.
	renderer *imageapi.Client
	cache    *lru
	group    singleflight.Group
	// fetches holds a token per upstream fetch in flight (Config.MaxFetches).
	fetches chan struct{}
	limit   *rateLimit
	log     *slog.Logger
}

// New validates cfg (production demands real keys) and builds the proxy. rdb keeps the rate
// limits' counts; it may be nil only when both rates are 0 (no limit).
func New(cfg Config, production bool, rdb *redis.Client, log *slog.Logger) (*Proxy, error) {
	if err := cfg.Validate(production); err != nil {
		return nil, err
	}
	if rdb == nil && (cfg.ClientRate > 0 || cfg.AccountRate > 0) {
		return nil, errors.New("imageproxy: the rate limits need Redis (PRESSROOM_IMAGE_PROXY_CLIENT_RATE and _ACCOUNT_RATE 0 turn them off)")
	}
	key := cfg.Key
	if key == "" {
		key = DevKey
	}
	p := &Proxy{
		cfg:     cfg,
		signer:  signer{key: []byte(key), ttl: cfg.TokenTTL, now: time.Now},
		fetches: make(chan struct{}, cfg.MaxFetches),
		limit:   &rateLimit{ratelimit.New(rdb, cfg.RateWindow)},
		log:     log,
	}
	p.renderer = &imageapi.Client{BaseURL: cfg.RendererURL, Key: cfg.RendererKey, HTTP: &http.Client{
		// The renderer is ours, on loopback or the internal network: no environment proxy either.
		Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 16, IdleConnTimeout: 90 * time.Second},
	}}
	if cfg.CacheBytes > 0 {
		p.cache = newLRU(cfg.CacheBytes)
	}
	dialer := &net.Dialer{
		Timeout:   cfg.Timeout,
		KeepAlive: 30 * time.Second,
		Resolver:  netguard.Resolver(cfg.DNSServer),
		// Control runs after name resolution, on the IP and port about to be connected, for
		// every connection the transport opens: the first, each redirect's, each retry's.
		Control: p.policy().Control,
	}
	p.client = &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil, // an HTTP(S)_PROXY from the environment would dial for us, unchecked
			DialContext:            dialer.DialContext,
			ForceAttemptHTTP2:      true,
			TLSHandshakeTimeout:    cfg.Timeout,
			ResponseHeaderTimeout:  cfg.Timeout,
			MaxResponseHeaderBytes: 64 << 10,
			MaxIdleConns:           64,
			MaxIdleConnsPerHost:    4,
			IdleConnTimeout:        90 * time.Second,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > cfg.MaxRedirects {
				return fmt.Errorf("%w: more than %d redirects", ErrUpstream, cfg.MaxRedirects)
			}
			_, err := p.checkURL(req.URL.String())
			return err
		},
		Timeout: cfg.Timeout,
	}
	return p, nil
}

// policy is where the proxy may connect: public addresses and Config.Allow, on Config's ports.
func (p *Proxy) policy() netguard.Policy {
	return netguard.Policy{Allow: p.cfg.Allow, AnyPort: p.cfg.AnyPort}
}

// checkURL is netguard's form and literal check under the proxy's policy.
func (p *Proxy) checkURL(raw string) (*url.URL, error) { return p.policy().CheckURL(raw) }

// Close drops idle upstream connections.
func (p *Proxy) Close() { p.client.CloseIdleConnections() }

// SignedURL is the proxy path for raw with its token, for lists that show foreign images. The
// caller may append "&is_thumbnail=1": the token covers the address, not the variant. It fails
// with netguard.ErrBadURL or an *netguard.AddrError for addresses the proxy would refuse anyway.
func (p *Proxy) SignedURL(raw string) (string, error) {
	if _, err := p.checkURL(raw); err != nil {
		return "", err
	}
	return Path + "?" + url.Values{"url": {raw}, "token": {p.signer.sign(raw)}}.Encode(), nil
}

// form is what the proxy answers for an address: the image as fetched, or its thumbnail in the
// fetched family of formats (JPEG or PNG) or as WebP.
type form byte

const (
	original  form = 'o'
	thumb     form = 't'
	thumbWebP form = 'w'
)

// get answers form of raw, from the cache or by fetching once however many callers ask at the
// same time.
func (p *Proxy) get(ctx context.Context, raw string, f form) (*entry, error) {
	key := string(f) + "|" + raw
	if e, ok := p.cached(key); ok {
		return e, nil
	}
	v, err, _ := p.group.Do(key, func() (any, error) {
		if e, ok := p.cached(key); ok {
			return e, nil
		}
		// The work outlives the caller that started it: others may be waiting on it.
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), p.cfg.Timeout)
		defer cancel()
		var e *entry
		var err error
		if f == original {
			e, err = p.fetch(wctx, raw)
		} else {
			e, err = p.makeThumbnail(wctx, raw, f == thumbWebP)
		}
		if err != nil {
			return nil, err
		}
		e.etag = etag(e.body)
		if p.cache != nil {
			p.cache.add(key, e)
		}
		return e, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*entry), nil
}

func (p *Proxy) cached(key string) (*entry, bool) {
	if p.cache == nil {
		return nil, false
	}
	return p.cache.get(key)
}

// makeThumbnail has the renderer fit the original of raw in the thumbnail box.
func (p *Proxy) makeThumbnail(ctx context.Context, raw string, asWebP bool) (*entry, error) {
	orig, err := p.get(ctx, raw, original)
	if err != nil {
		return nil, err
	}
	variant := imageapi.Thumb
	if asWebP {
		variant = imageapi.ThumbWebP
	}
	return p.render(ctx, orig.body, variant)
}

// render has the renderer check body (variant original: its type and pixel count) or make a
// thumbnail of it.
func (p *Proxy) render(ctx context.Context, body []byte, variant string) (*entry, error) {
	res, err := p.renderer.Do(ctx, body, variant, p.cfg.MaxPixels)
	switch {
	case errors.Is(err, imageapi.ErrTooLarge):
		return nil, ErrTooLarge
	case errors.Is(err, imageapi.ErrBusy), errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("%w: %w", ErrTimeout, err)
	case err != nil:
		return nil, err
	}
	if variant == imageapi.Original {
		return &entry{body: body, contentType: res.ContentType}, nil
	}
	return &entry{body: res.Body, contentType: res.ContentType}, nil
}

// fetch GETs raw within the caps and has the renderer check that the answer is an image.
func (p *Proxy) fetch(ctx context.Context, raw string) (*entry, error) {
	u, err := p.checkURL(raw)
	if err != nil {
		return nil, err
	}
	body, err := p.download(ctx, u)
	if err != nil {
		return nil, err
	}
	return p.render(ctx, body, imageapi.Original)
}

// download GETs u within the caps, holding one of Config.MaxFetches for the upstream's time only.
func (p *Proxy) download(ctx context.Context, u *url.URL) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", netguard.ErrBadURL, err)
	}
	req.Header.Set("User-Agent", "Pressroom-ImageProxy/1")
	req.Header.Set("Accept", "image/png,image/jpeg,image/webp,image/gif")
	select {
	case p.fetches <- struct{}{}:
		defer func() { <-p.fetches }()
	default:
		return nil, ErrBusy
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return nil, fetchError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: status %d", ErrUpstream, resp.StatusCode)
	}
	if resp.ContentLength > p.cfg.MaxBytes {
		return nil, ErrTooLarge
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, p.cfg.MaxBytes+1))
	if err != nil {
		return nil, fetchError(err)
	}
	if int64(len(body)) > p.cfg.MaxBytes {
		return nil, ErrTooLarge
	}
	return body, nil
}

// fetchError keeps the refusals the user must see apart from plain upstream failures.
func fetchError(err error) error {
	var ae *netguard.AddrError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, netguard.ErrBadURL), errors.Is(err, ErrUpstream):
		return err
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, http.ErrHandlerTimeout):
		return fmt.Errorf("%w: %w", ErrTimeout, err)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("%w: %w", ErrTimeout, err)
	}
	return fmt.Errorf("%w: %w", ErrUpstream, err)
}

func etag(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
}
