package publicurl_test

import (
	"os"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/publicurl"
)

func TestLoadConfig(t *testing.T) {
	cases := []struct {
		name string
		vars map[string]string
		want string
	}{
		{"nothing set: the bff's default address", nil, "http://127.0.0.1:8080"},
		{"the bff's listen address, a wildcard read as loopback", map[string]string{"PRESSROOM_HTTP_ADDR": "0.0.0.0:9123"}, "http://127.0.0.1:9123"},
		{"the public address wins, without its trailing slash",
			map[string]string{"PRESSROOM_HTTP_ADDR": "0.0.0.0:9123", "PRESSROOM_PUBLIC_URL": "https://dash.example.com/"}, "https://dash.example.com"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := publicurl.LoadConfig(env.Map(tc.vars))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.URL != tc.want {
				t.Fatalf("URL = %q, want %q", cfg.URL, tc.want)
			}
			if got := cfg.Link("/api/x"); got != tc.want+"/api/x" {
				t.Fatalf("Link = %q", got)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	derived, _ := publicurl.LoadConfig(env.Map(nil))
	if err := derived.Validate(false); err != nil {
		t.Fatalf("a derived address outside production: %v", err)
	}
	if err := derived.Validate(true); err == nil || !strings.Contains(err.Error(), "PRESSROOM_PUBLIC_URL is required in production") {
		t.Fatalf("production without PRESSROOM_PUBLIC_URL: %v", err)
	}
	for _, bad := range []string{"dash.example.com", "ftp://dash.example.com", "https://dash.example.com/?a=b"} {
		cfg, _ := publicurl.LoadConfig(env.Map(map[string]string{"PRESSROOM_PUBLIC_URL": bad}))
		if err := cfg.Validate(false); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestComposeGivesEveryServiceThePublicAddress guards the deployment file: the bff, the worker and
// the blob store must all read the one address browsers use, or the worker's unsubscribe links and
// the bff's password links point at an address of their own.
func TestComposeGivesEveryServiceThePublicAddress(t *testing.T) {
	raw, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	start := strings.Index(text, "x-pressroom-env: &pressroom-env")
	end := strings.Index(text, "x-pressroom-service:")
	if start < 0 || end < start {
		t.Fatal("docker-compose.yml: the shared environment block moved; update this test")
	}
	shared := text[start:end]
	if !strings.Contains(shared, "\n  PRESSROOM_PUBLIC_URL: ") {
		t.Fatal("docker-compose.yml: the shared environment (bff, worker, renderer) does not set PRESSROOM_PUBLIC_URL")
	}
}
