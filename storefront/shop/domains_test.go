package shop

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// serveWith is f's storefront with its page (and host) cache kept for ttl; 0 turns them off.
func serveWith(t testing.TB, f fixture, ttl time.Duration) *httptest.Server {
	t.Helper()
	cfg := DefaultConfig()
	cfg.PageCache = ttl
	h, err := New(cfg, Deps{DB: f.db, Blobs: f.blobs, Checkout: f.checkout, Gateways: f.gateways, Mailer: f.mailer, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// hostGet fetches path from srv as host.
func hostGet(t testing.TB, srv *httptest.Server, host, path string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL+path, nil)
	req.Host = host
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// TestCustomDomain serves a store on its verified custom domain only, with that domain as the
// canonical address, and answers the TLS proxy's ask for verified domains only.
func TestCustomDomain(t *testing.T) {
	f := setup(t)
	var id int64
	if err := f.db.Get(&id, `INSERT INTO store_domains (store_id, domain) VALUES ($1, 'shop.example.test') RETURNING id`, f.storeID); err != nil {
		t.Fatal(err)
	}
	// Without the caches, each request sees the domain's state of the moment.
	srv := serveWith(t, f, 0)
	do := func(host, path string) (*http.Response, string) {
		t.Helper()
		return hostGet(t, srv, host, path)
	}
	ask := func(domain string) int {
		t.Helper()
		res, _ := do("127.0.0.1", AskPath+"?domain="+domain)
		return res.StatusCode
	}

	if res, _ := do("shop.example.test", "/"); res.StatusCode != 404 {
		t.Fatalf("pending domain served: %d", res.StatusCode)
	}
	if got := ask("shop.example.test"); got != 404 {
		t.Fatalf("ask for a pending domain: %d", got)
	}

	if _, err := f.db.Exec(`UPDATE store_domains SET verified_at = now() WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	res, body := do("Shop.Example.Test:8082", "/")
	if res.StatusCode != 200 || !strings.Contains(body, `href="/c/`) ||
		!strings.Contains(body, `<link rel="canonical" href="http://shop.example.test:8082/">`) {
		t.Fatalf("verified domain: %d\n%s", res.StatusCode, body)
	}
	_, body = do("shop.example.test", "/sitemaps/campaigns-1.xml")
	if !strings.Contains(body, "<loc>http://shop.example.test/c/"+itoa(f.campaign)+"</loc>") {
		t.Errorf("sitemap on the custom domain\n%s", body)
	}
	for _, c := range []struct {
		domain string
		want   int
	}{
		{"shop.example.test", 200},
		{"SHOP.example.test.", 200},
		{"other.example.test", 404},
		{"demo.localhost", 404},
		{"127.0.0.1", 404},
		{"", 404},
	} {
		if got := ask(c.domain); got != c.want {
			t.Errorf("ask %q: %d, want %d", c.domain, got, c.want)
		}
	}
	// The store's addresses on the platform keep working beside it; an unknown host finds nothing.
	if res, _ := do("demo.localhost", "/"); res.StatusCode != 200 {
		t.Errorf("by slug host: %d", res.StatusCode)
	}
	if res, _ := do("other.example.test", "/"); res.StatusCode != 404 {
		t.Errorf("unknown domain: %d", res.StatusCode)
	}

	// Verification lost: the domain stops serving (at once here; within the cache's time with it on).
	if _, err := f.db.Exec(`UPDATE store_domains SET verified_at = NULL, check_error = 'gone' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if got := ask("shop.example.test"); got != 404 {
		t.Errorf("ask after verification was lost: %d", got)
	}
	if res, _ := do("shop.example.test", "/"); res.StatusCode != 404 {
		t.Errorf("served after verification was lost: %d", res.StatusCode)
	}
}

// TestCustomDomainCache: with the caches on, a custom domain's store is looked up once per cache
// time, both ways: a domain verified meanwhile waits for it, and so does one that lost its
// verification, while the ask endpoint always reads the database.
func TestCustomDomainCache(t *testing.T) {
	f := setup(t)
	srv := serveWith(t, f, time.Hour)
	var id int64
	if err := f.db.Get(&id, `INSERT INTO store_domains (store_id, domain) VALUES ($1, 'shop.example.test') RETURNING id`, f.storeID); err != nil {
		t.Fatal(err)
	}
	if res, _ := hostGet(t, srv, "shop.example.test", "/"); res.StatusCode != 404 {
		t.Fatalf("pending: %d", res.StatusCode)
	}
	f.db.MustExec(`UPDATE store_domains SET verified_at = now() WHERE id = $1`, id)
	if res, _ := hostGet(t, srv, "shop.example.test", "/"); res.StatusCode != 404 {
		t.Fatalf("verified within the cache time: %d, want the kept answer", res.StatusCode)
	}
	if res, _ := hostGet(t, srv, "127.0.0.1", AskPath+"?domain=shop.example.test"); res.StatusCode != 200 {
		t.Fatalf("ask reads the database: %d", res.StatusCode)
	}
	fresh := serveWith(t, f, time.Hour)
	if res, _ := hostGet(t, fresh, "shop.example.test", "/"); res.StatusCode != 200 {
		t.Fatalf("verified, on a fresh process: %d", res.StatusCode)
	}
	f.db.MustExec(`UPDATE store_domains SET verified_at = NULL WHERE id = $1`, id)
	if res, _ := hostGet(t, fresh, "shop.example.test", "/"); res.StatusCode != 200 {
		t.Fatalf("unverified within the cache time: %d, want the kept answer", res.StatusCode)
	}
	if res, _ := hostGet(t, srv, "127.0.0.1", AskPath+"?domain=shop.example.test"); res.StatusCode != 404 {
		t.Fatalf("ask after the loss: %d", res.StatusCode)
	}
}

// BenchmarkHomeByHost serves the store home (from the page cache after the first request) by its
// slug host and by its verified custom domain, whose host is looked up in Postgres on every request.
func BenchmarkHomeByHost(b *testing.B) {
	f := setup(b)
	f.db.MustExec(`INSERT INTO store_domains (store_id, domain, verified_at) VALUES ($1, 'shop.example.test', now())`, f.storeID)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	for _, host := range []string{"demo.localhost", "shop.example.test"} {
		b.Run(host, func(b *testing.B) {
			for b.Loop() {
				req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, f.srv.URL+"/", nil)
				req.Host = host
				res, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					b.Fatalf("%s: %d", host, res.StatusCode)
				}
			}
		})
	}
}
