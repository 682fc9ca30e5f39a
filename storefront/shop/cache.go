package shop

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// pageCache keeps the rendered catalogue pages (a store's home, its product, collection, store and blog pages) for a few
// seconds, so a busy product page costs its queries and its template once per TTL rather than
// once per buyer. The pages hold nothing of one buyer (the cart is only a link), so every buyer may
// get the same bytes, as a CDN would give them. An expired page is rendered again by one request
// while the others asking for it wait for that one. Entries are bounded: once full, new pages are
// served without being kept until the expired ones are swept.
type pageCache struct {
	ttl   time.Duration
	max   int
	mu    sync.Mutex
	pages map[string]cachedPage
	group singleflight.Group
}

type cachedPage struct {
	status  int
	header  http.Header
	body    []byte
	expires time.Time
}

// maxCachedPages bounds the cache: query strings make URLs endless.
const maxCachedPages = 4096

func newPageCache(ttl time.Duration) *pageCache {
	if ttl <= 0 {
		return nil
	}
	return &pageCache{ttl: ttl, max: maxCachedPages, pages: map[string]cachedPage{}}
}

// cacheable reports whether the page at rest (the path under the store's base) is one buyer-neutral
// catalogue page: the home, a product page, a collection's page, a store page or a page of the
// blog (sitemaps are not kept: a file of 50,000 addresses is a CDN's to keep).
func cacheable(r *http.Request, rest string) bool {
	return (r.Method == http.MethodGet || r.Method == http.MethodHead) &&
		(rest == "/" || rest == "/blog" || strings.HasPrefix(rest, "/c/") || strings.HasPrefix(rest, "/collections/") ||
			strings.HasPrefix(rest, "/p/") || strings.HasPrefix(rest, "/blog/"))
}

// serve answers from the cache, or renders through render once for every request waiting on key.
func (c *pageCache) serve(w http.ResponseWriter, r *http.Request, key string, render func(http.ResponseWriter, *http.Request)) {
	now := time.Now()
	c.mu.Lock()
	p, ok := c.pages[key]
	c.mu.Unlock()
	if !ok || now.After(p.expires) {
		v, _, _ := c.group.Do(key, func() (any, error) {
			rec := &recorder{header: http.Header{}, status: http.StatusOK}
			// The page is for every waiting buyer: the first one leaving does not cancel it.
			render(rec, r.WithContext(context.WithoutCancel(r.Context())))
			p := cachedPage{status: rec.status, header: rec.header, body: rec.body.Bytes(), expires: time.Now().Add(c.ttl)}
			if p.status == http.StatusOK {
				c.keep(key, p)
			}
			return p, nil
		})
		p = v.(cachedPage)
	}
	for k, v := range p.header {
		w.Header()[k] = v
	}
	w.WriteHeader(p.status)
	if r.Method != http.MethodHead {
		w.Write(p.body)
	}
}

func (c *pageCache) keep(key string, p cachedPage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pages) >= c.max {
		for k, old := range c.pages {
			if time.Now().After(old.expires) {
				delete(c.pages, k)
			}
		}
	}
	if len(c.pages) < c.max {
		c.pages[key] = p
	}
}

// recorder keeps what a page handler writes.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	wrote  bool
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}
