package server

import (
	"crypto/tls"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

func newTestServer(t *testing.T, trustProxy bool) *echo.Echo {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html><div id=root></div>"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.UIDir, cfg.TrustProxy = dir, trustProxy
	cfg.ContentOrigins = []string{"https://files.example.com"}
	cfg.InlineScriptPaths = []string{"/admin/queues"}
	e, err := New(cfg, slog.New(slog.DiscardHandler), func(e *echo.Echo) {
		e.GET("/api/ping", func(c echo.Context) error { return c.JSON(http.StatusOK, "pong") })
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestUIContentSecurityPolicy(t *testing.T) {
	e := newTestServer(t, false)
	for _, path := range []string{"/", "/campaigns/7", "/api/ping", "/api/unknown"} {
		t.Run(path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			csp := rec.Header().Get("Content-Security-Policy")
			directives := map[string]string{}
			for d := range strings.SplitSeq(csp, ";") {
				name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
				directives[name] = value
			}
			want := map[string]string{
				"default-src":     "'self'",
				"script-src":      "'self'",
				"object-src":      "'none'",
				"frame-ancestors": "'none'",
				"base-uri":        "'self'",
			}
			for name, value := range want {
				if directives[name] != value {
					t.Errorf("%s = %q, want %q (policy %q)", name, directives[name], value, csp)
				}
			}
			for _, name := range []string{"img-src", "connect-src"} {
				if !strings.Contains(directives[name], "https://files.example.com") {
					t.Errorf("%s = %q does not allow the blob origin", name, directives[name])
				}
			}
			if strings.Contains(csp, "unsafe-eval") || strings.Contains(directives["script-src"], "unsafe-inline") {
				t.Errorf("policy lets scripts run from markup: %q", csp)
			}
			for name, value := range map[string]string{
				"X-Content-Type-Options": "nosniff", "Referrer-Policy": "strict-origin-when-cross-origin", "X-Frame-Options": "DENY",
			} {
				if got := rec.Header().Get(name); got != value {
					t.Errorf("%s = %q, want %q", name, got, value)
				}
			}
		})
	}
}

// The queue monitor's page (a third-party tool) writes inline scripts: only its paths allow them.
func TestInlineScriptsOnlyForTheirPaths(t *testing.T) {
	e := newTestServer(t, false)
	for path, want := range map[string]bool{"/admin/queues": true, "/admin/queues/static/x.js": true, "/admin/queuesx": false, "/": false, "/admin": false} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		csp := rec.Header().Get("Content-Security-Policy")
		if got := strings.Contains(csp, "script-src 'self' 'unsafe-inline'"); got != want {
			t.Errorf("%s: inline scripts allowed = %v, want %v (%q)", path, got, want, csp)
		}
		if !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: policy %q", path, csp)
		}
	}
}

func TestHSTSOnlyOverHTTPS(t *testing.T) {
	tests := []struct {
		name       string
		trustProxy bool
		tls        bool
		proto      string
		want       bool
	}{
		{"plain http", false, false, "", false},
		{"tls", false, true, "", true},
		{"a client's own X-Forwarded-Proto is not believed", false, false, "https", false},
		{"a trusted proxy says https", true, false, "https", true},
		{"a trusted proxy chain starting with https", true, false, "https, http", true},
		{"a trusted proxy says http", true, false, "http", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestServer(t, tt.trustProxy)
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			if tt.tls {
				req.TLS = &tls.ConnectionState{}
			}
			if tt.proto != "" {
				req.Header.Set("X-Forwarded-Proto", tt.proto)
			}
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			got := rec.Header().Get("Strict-Transport-Security")
			if (got != "") != tt.want {
				t.Fatalf("Strict-Transport-Security = %q, want sent: %v", got, tt.want)
			}
			if tt.want && !strings.HasPrefix(got, "max-age=") {
				t.Fatalf("Strict-Transport-Security = %q", got)
			}
		})
	}
}
