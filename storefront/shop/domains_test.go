package shop

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestCustomDomain serves a store on its verified custom domain only, with that domain as the
// canonical address, and answers the TLS proxy's ask for verified domains only.
func TestCustomDomain(t *testing.T) {
	f := setup(t)
	var id int64
	if err := f.db.Get(&id, `INSERT INTO store_domains (store_id, domain) VALUES ($1, 'shop.example.test') RETURNING id`, f.storeID); err != nil {
		t.Fatal(err)
	}
	do := func(host, path string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, f.srv.URL+path, nil)
		req.Host = host
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
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
	_, body = do("shop.example.test", "/sitemap.xml")
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

	// Verification lost: the domain stops serving at once (the host is resolved before the page cache).
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
