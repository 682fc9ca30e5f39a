package shop

import (
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPageCache: a product page rendered once is served again to the next buyer without being
// rendered (a renamed campaign still shows its old name within the cache's time), per address and
// query; the cart is never kept; with the cache off every request renders.
func TestPageCache(t *testing.T) {
	f := setup(t)
	c := client(t)
	page := f.srv.URL + "/s/demo/c/" + itoa(f.campaign)
	if _, body := get(t, c, page); !strings.Contains(body, "Cats &lt;script&gt;") {
		t.Fatalf("product page\n%s", body)
	}
	f.db.MustExec(`UPDATE campaigns SET name = 'Dogs'`)
	res, body := get(t, c, page)
	if res.StatusCode != 200 || !strings.Contains(body, "Cats &lt;script&gt;") || res.Header.Get("Cache-Control") != cachePublic {
		t.Errorf("second buyer did not get the kept page: %d %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	if _, body := get(t, c, page+"?product="+itoa(f.mug)); !strings.Contains(body, "Dogs") {
		t.Errorf("another query was answered from the kept page")
	}
	post(t, c, f.srv.URL+"/s/demo/cart/items", map[string][]string{"product_id": {itoa(f.mug)}, "color": {"White"}, "size": {"11oz"}, "quantity": {"1"}})
	if _, body := get(t, c, f.srv.URL+"/s/demo/cart"); !strings.Contains(body, "Dogs") {
		t.Errorf("cart page not rendered afresh:\n%s", body)
	}

	cfg := DefaultConfig()
	cfg.PageCache = 0
	co := mustServer(t, f, cfg)
	if _, body := get(t, c, co.URL+"/s/demo/c/"+itoa(f.campaign)); !strings.Contains(body, "Dogs") {
		t.Fatalf("no cache: old page")
	}
	f.db.MustExec(`UPDATE campaigns SET name = 'Birds'`)
	if _, body := get(t, c, co.URL+"/s/demo/c/"+itoa(f.campaign)); !strings.Contains(body, "Birds") {
		t.Errorf("with the cache off the page was kept")
	}
}

func mustServer(t *testing.T, f fixture, cfg Config) *httptest.Server {
	t.Helper()
	h, err := New(cfg, Deps{DB: f.db, Blobs: f.blobs, Checkout: f.checkout, Gateways: f.gateways, Mailer: f.mailer, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}
