package shop

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/mail"
)

// Deps are what the shop uses.
type Deps struct {
	DB       *sqlx.DB
	Blobs    blob.Store
	Checkout *checkout.Service
	// Gateways finds the gateways webhooks come from: the platform's and the sellers' own.
	Gateways *gateways.Resolver
	// Mailer sends buyers their order confirmations.
	Mailer *mail.Mailer
	Log    *slog.Logger
}

// Server is the storefront's HTTP handler.
type Server struct {
	cfg   Config
	d     Deps
	store store
	pages *pages
	mail  *mailTemplates
	mux   *http.ServeMux
	limit *limiter
	cache *pageCache // nil: pages are rendered for every request
	hosts *hostCache // nil: custom domains are looked up for every request
	// ui is the built UI's manifest (the preview script), templates the mockup quads it draws on.
	ui        *uiBuild
	templates *templateQuads
	// keywords counts the searches, visits the pages opened, until they are written (Run).
	keywords *keywords
	visits   *visits
}

// New builds the handler.
func New(cfg Config, d Deps) (*Server, error) {
	if d.DB == nil || d.Blobs == nil || d.Checkout == nil || d.Gateways == nil || d.Mailer == nil || d.Log == nil {
		return nil, errors.New("shop: database, blob store, checkout, gateways, mailer and logger are required")
	}
	p, err := parsePages()
	if err != nil {
		return nil, err
	}
	mailT, err := parseMail()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, d: d, store: store{db: d.DB}, pages: p, mail: mailT, mux: http.NewServeMux(), limit: newLimiter(cfg.PostsPerMinute),
		cache: newPageCache(cfg.PageCache), hosts: newHostCache(cfg.PageCache), ui: &uiBuild{dir: cfg.UIDir},
		keywords: newKeywords(d.DB, d.Log, cfg.KeywordFlush), visits: newVisits(d.DB, d.Log, cfg.KeywordFlush)}
	s.templates = &templateQuads{quads: map[string][4][2]float64{}, read: func(ctx context.Context, key string) (io.ReadCloser, error) {
		rc, _, err := d.Blobs.Get(ctx, key)
		return rc, err
	}}
	s.routes()
	return s, nil
}

// Run writes the searches counted (the seller's Search Keywords) and the store visits (the
// overview) every PRESSROOM_STOREFRONT_KEYWORD_FLUSH until ctx ends, then what is left. The handler
// serves without it; counts then wait in memory.
func (s *Server) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	var visitsErr error
	wg.Go(func() { visitsErr = s.visits.run(ctx) })
	err := s.keywords.run(ctx)
	wg.Wait()
	return errors.Join(err, visitsErr)
}

// maxForm caps what a form post may send: a cart line or an address is a few hundred bytes. A
// multipart post (an add-to-cart form with photos, a photo upload) may also carry
// maxPhotosPerPost photos of PhotoMaxBytes.
const maxForm = 32 << 10

// routes lists every page of a store, relative to the store's base (/ on its host, /s/{slug}/ by path).
func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /{$}", s.home)
	m.HandleFunc("GET /c/{id}", s.campaign)
	m.HandleFunc("GET /img/{id}", s.image)
	m.HandleFunc("GET /pz/{id}/asset", s.asset)
	m.HandleFunc("GET /p/{slug}", s.page)
	m.HandleFunc("GET /collections/{slug}", s.collection)
	m.HandleFunc("GET /cart", s.cart)
	m.HandleFunc("POST /cart/items", s.addToCart)
	m.HandleFunc("POST /cart/items/{id}", s.setQuantity)
	m.HandleFunc("GET /checkout", s.checkoutForm)
	m.HandleFunc("POST /checkout", s.saveCheckout)
	m.HandleFunc("GET /checkout/{id}", s.review)
	m.HandleFunc("POST /checkout/{id}/pay", s.pay)
	// Stripe sends the buyer back here once the browser confirmed: the intent is read and, when it
	// succeeded, the order made as by the pay button (the webhook may have made it already).
	m.HandleFunc("GET /checkout/{id}/return", s.pay)
	m.HandleFunc("GET /orders/{id}/{token}", s.order)
	m.HandleFunc("GET /recover/{id}/{token}", s.recover)
	m.HandleFunc("GET /reviews/{id}/{token}", s.writeReview)
	m.HandleFunc("POST /reviews/{id}/{token}", s.submitReview)
	m.HandleFunc("GET /c/{id}/reviews/{review}/photo", s.reviewPhoto)
	m.HandleFunc("GET /search", s.search)
	m.HandleFunc("GET /feeds/{file}", s.feed)
	m.HandleFunc("GET /robots.txt", s.robots)
	m.HandleFunc("GET /sitemap.xml", s.sitemap)
	m.HandleFunc("GET /sitemaps/{file}", s.sitemapFile)
	m.HandleFunc("GET /blog", s.blog)
	m.HandleFunc("GET /blog/{slug}", s.blogPost)
	m.HandleFunc("GET /blog/category/{slug}", s.blogCategory)
	m.HandleFunc("GET /img/post/{id}", s.postCover)
	m.HandleFunc("GET /api/cart", s.apiCart)
	m.HandleFunc("POST /api/cart/items", s.apiAddToCart)
	m.HandleFunc("POST /api/photos", s.apiPhoto)
	m.HandleFunc("GET /api/photos/{id}", s.apiPhotoGet)
	m.HandleFunc("POST /api/checkout", s.apiSaveCheckout)
	m.HandleFunc("POST /api/checkout/{id}/pay", s.apiPay)
}

type ctxKey struct{}

// reqStore is the store a request is for and the path prefix of its pages ("" on its own host).
type reqStore struct {
	Store
	Base string
	// Origin is scheme://host[:port] of the store's canonical address ({slug}.{domain}).
	Origin string
}

func storeOf(r *http.Request) reqStore { return r.Context().Value(ctxKey{}).(reqStore) }

// ServeHTTP resolves the store by path or host and serves its page.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "strict-origin-when-cross-origin")
	if r.URL.Path == "/healthz" {
		io.WriteString(w, "ok")
		return
	}
	if r.URL.Path == "/readyz" {
		if err := s.d.DB.PingContext(r.Context()); err != nil {
			http.Error(w, "database unreachable", http.StatusServiceUnavailable)
			return
		}
		io.WriteString(w, "ok")
		return
	}
	if r.URL.Path == webhookPath || strings.HasPrefix(r.URL.Path, webhookPath+"/") {
		s.webhook(w, r)
		return
	}
	if r.URL.Path == AskPath {
		s.ask(w, r)
		return
	}
	if strings.HasPrefix(r.URL.Path, assetsPrefix) {
		s.serveAssets(w, r)
		return
	}
	if r.Method == http.MethodGet && (r.URL.Path == defaultFontsPath || strings.HasPrefix(r.URL.Path, defaultFontsPath+"/")) {
		s.serveDefaultFonts(w, r)
		return
	}
	host, port := r.Host, ""
	if h, p, err := net.SplitHostPort(r.Host); err == nil {
		host, port = h, p
	}
	host = strings.ToLower(host)
	slug, base, rest, custom := "", "", r.URL.Path, false
	if after, ok := strings.CutPrefix(r.URL.Path, "/s/"); ok {
		slug, rest, _ = strings.Cut(after, "/")
		rest = "/" + rest
		base = "/s/" + slug
		if !strings.Contains(after, "/") { // /s/demo -> /s/demo/
			http.Redirect(w, r, base+"/", http.StatusMovedPermanently)
			return
		}
	} else if sub, ok := strings.CutSuffix(host, "."+s.cfg.StoreDomain); ok && !strings.Contains(sub, ".") {
		slug = sub
	} else if s.mayBeCustom(host) {
		own, err := s.hosts.slug(r.Context(), host, s.verifiedDomainSlug)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		slug, custom = own, own != ""
	}
	if slug == "" {
		s.notFound(w, r, "No store lives at this address. A store is at /s/{name}/ or {name}."+s.cfg.StoreDomain+".")
		return
	}
	if r.Method == http.MethodGet && cacheable(r, rest) {
		s.visits.record(slug, r)
	}
	if s.cache != nil && cacheable(r, rest) {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		s.cache.serve(w, r, scheme+"://"+strings.ToLower(r.Host)+r.URL.RequestURI(), func(w http.ResponseWriter, r *http.Request) {
			s.serveStore(w, r, slug, base, rest, port, custom)
		})
		return
	}
	s.serveStore(w, r, slug, base, rest, port, custom)
}

// verifiedDomainSlug is the slug of the store whose verified custom domain is host, "" for none.
func (s *Server) verifiedDomainSlug(ctx context.Context, host string) (string, error) {
	slug, err := s.store.slugByDomain(ctx, host)
	if errors.Is(err, errNotFound) {
		return "", nil
	}
	return slug, err
}

// mayBeCustom reports whether host could be a store's own domain: not an IP address nor the store
// domain itself.
func (s *Server) mayBeCustom(host string) bool {
	if host == "" || host == s.cfg.StoreDomain {
		return false
	}
	_, err := netip.ParseAddr(host)
	return err != nil
}

// serveStore serves the page at rest of the store slug, whose pages are under base. On the store's
// own (custom) domain, that domain is the canonical address.
func (s *Server) serveStore(w http.ResponseWriter, r *http.Request, slug, base, rest, port string, custom bool) {
	st, err := s.store.storeBySlug(r.Context(), slug)
	if errors.Is(err, errNotFound) {
		s.notFound(w, r, "There is no store named "+slug+".")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	origin := scheme + "://" + st.Slug + "." + s.cfg.StoreDomain
	if port != "" {
		origin += ":" + port
	}
	if custom {
		origin = scheme + "://" + strings.ToLower(r.Host)
	}
	rs := reqStore{Store: st, Base: base, Origin: origin}
	r2 := r.Clone(context.WithValue(r.Context(), ctxKey{}, rs))
	r2.URL.Path = rest
	r2.URL.RawPath = ""
	if !s.limitClient(w, r, rest) {
		return
	}
	if r.Method == http.MethodPost {
		limit := int64(maxForm)
		switch {
		case strings.HasPrefix(rest, "/reviews/"):
			limit = maxReviewForm // a review may carry a photo
		case strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data"):
			limit += maxPhotosPerPost * s.cfg.PhotoMaxBytes
		}
		r2.Body = http.MaxBytesReader(w, r.Body, limit)
	}
	s.mux.ServeHTTP(w, r2)
}

// orderToken signs an order's status link.
func (s *Server) orderToken(storeID, orderID int64) string {
	mac := hmac.New(sha256.New, []byte(s.cfg.SigningKey))
	mac.Write([]byte("order:" + strconv.FormatInt(storeID, 10) + ":" + strconv.FormatInt(orderID, 10)))
	return hex.EncodeToString(mac.Sum(nil))[:32]
}

// OrderPath is the path, under a store's base, of an order's status page.
func (s *Server) OrderPath(storeID, orderID int64) string {
	return "/orders/" + strconv.FormatInt(orderID, 10) + "/" + s.orderToken(storeID, orderID)
}

func (s *Server) validOrderToken(storeID, orderID int64, token string) bool {
	return hmac.Equal([]byte(token), []byte(s.orderToken(storeID, orderID)))
}

// Cache rules: catalogue pages may be kept by a CDN for a minute and served stale while it
// refreshes; anything about one buyer (cart, checkout, orders) is never stored.
const (
	cachePublic  = "public, max-age=60, stale-while-revalidate=300"
	cachePrivate = "private, no-store"
	cacheImage   = "public, max-age=86400"
)

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	s.d.Log.Error("storefront", "path", r.URL.Path, "err", err)
	w.Header().Set("Cache-Control", cachePrivate)
	http.Error(w, "Something went wrong on our side. Please try again.", http.StatusInternalServerError)
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request, msg string) {
	w.Header().Set("Cache-Control", cachePublic)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	if err := s.pages.render(w, "notfound", view{Title: "Not found", Message: msg}); err != nil {
		s.d.Log.Error("render", "err", err)
	}
}
