package blob

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestS3PublicEndpoint signs URLs for a public endpoint other than the one the store talks to: the
// test S3 as "localhost" while the store dials 127.0.0.1. The URLs name the public host, and a
// browser's GET and PUT through them work.
func TestS3PublicEndpoint(t *testing.T) {
	var public string
	f := s3Backend.open(t, func(c *Config) {
		_, port, err := net.SplitHostPort(c.S3.Endpoint)
		if err != nil {
			t.Fatal(err)
		}
		public = "localhost:" + port
		c.S3.PublicEndpoint = "http://" + public
	})
	ctx := context.Background()
	key := f.key("u/7/public.png")
	if err := f.store.Put(ctx, key, strings.NewReader("first"), 5, "image/png"); err != nil {
		t.Fatal(err)
	}
	get, err := f.store.SignGet(ctx, key, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if u, _ := url.Parse(get); u.Host != public {
		t.Fatalf("signed GET %s, want it on %s", get, public)
	}
	res, err := http.Get(get)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != "first" {
		t.Fatalf("GET through the public host: %d %q", res.StatusCode, body)
	}

	up, err := f.store.SignUpload(ctx, key, "image/png", 100, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if u, _ := url.Parse(up.URL); u.Host != public {
		t.Fatalf("signed upload %s, want it on %s", up.URL, public)
	}
	if status, body := upload(t, up, "image/png", strings.NewReader("second")); status/100 != 2 {
		t.Fatalf("upload through the public host: %d %q", status, body)
	}
	rc, _, err := f.store.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if b, _ := io.ReadAll(rc); string(b) != "second" {
		t.Fatalf("stored after the PUT: %q", b)
	}
}
