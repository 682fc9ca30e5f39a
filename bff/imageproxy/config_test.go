package imageproxy

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/renderer/imageapi"
)

func TestConfig(t *testing.T) {
	strong := strings.Repeat("k", MinKeyLen)
	tests := []struct {
		name       string
		vars       map[string]string
		production bool
		wantErr    string // substring; "" for valid
		check      func(Config) bool
	}{
		{"defaults", nil, false, "", func(c Config) bool { return reflect.DeepEqual(c, DefaultConfig()) }},
		{"production needs a key", nil, true, "PRESSROOM_IMAGE_PROXY_KEY is required", nil},
		{"production refuses a short key", map[string]string{"PRESSROOM_IMAGE_PROXY_KEY": "short"}, true, "PRESSROOM_IMAGE_PROXY_KEY must be at least 32", nil},
		{"production refuses the dev key", map[string]string{"PRESSROOM_IMAGE_PROXY_KEY": DevKey}, true, "PRESSROOM_IMAGE_PROXY_KEY", nil},
		{"production needs a renderer key", map[string]string{"PRESSROOM_IMAGE_PROXY_KEY": strong}, true, "PRESSROOM_RENDERER_KEY is required", nil},
		{"production refuses the dev renderer key", map[string]string{"PRESSROOM_IMAGE_PROXY_KEY": strong, "PRESSROOM_RENDERER_KEY": imageapi.DevKey}, true, "PRESSROOM_RENDERER_KEY", nil},
		{"production with keys", map[string]string{"PRESSROOM_IMAGE_PROXY_KEY": strong, "PRESSROOM_RENDERER_KEY": strong + "r"}, true, "", func(c Config) bool {
			return c.Key == strong && c.RendererKey == strong+"r"
		}},
		{"allow, renderer and dns read", map[string]string{
			"PRESSROOM_IMAGE_PROXY_ALLOW": "10.1.2.3, 192.168.7.0/24", "PRESSROOM_RENDERER_URL": "http://renderer:8081",
			"PRESSROOM_IMAGE_PROXY_DNS": "10.0.0.2:53",
		}, false, "", func(c Config) bool {
			return reflect.DeepEqual(c.Allow, []netip.Prefix{netip.MustParsePrefix("10.1.2.3/32"), netip.MustParsePrefix("192.168.7.0/24")}) &&
				c.RendererURL == "http://renderer:8081" && c.DNSServer == "10.0.0.2:53"
		}},
		{"bad allow entry", map[string]string{"PRESSROOM_IMAGE_PROXY_ALLOW": "intranet"}, false, "PRESSROOM_IMAGE_PROXY_ALLOW", nil},
		{"bad renderer url", map[string]string{"PRESSROOM_RENDERER_URL": "renderer:8081"}, false, "PRESSROOM_RENDERER_URL", nil},
		{"bad dns server", map[string]string{"PRESSROOM_IMAGE_PROXY_DNS": "10.0.0.2"}, false, "PRESSROOM_IMAGE_PROXY_DNS", nil},
		{"values read", map[string]string{
			"PRESSROOM_IMAGE_PROXY_TIMEOUT": "3s", "PRESSROOM_IMAGE_PROXY_MAX_BYTES": "1000",
			"PRESSROOM_IMAGE_PROXY_ANY_PORT": "true", "PRESSROOM_IMAGE_PROXY_CACHE_BYTES": "0",
		}, false, "", func(c Config) bool {
			return c.Timeout == 3*time.Second && c.MaxBytes == 1000 && c.AnyPort && c.CacheBytes == 0
		}},
		{"bad number names the variable", map[string]string{"PRESSROOM_IMAGE_PROXY_MAX_BYTES": "20MiB"}, false, "PRESSROOM_IMAGE_PROXY_MAX_BYTES", nil},
		{"too many redirects", map[string]string{"PRESSROOM_IMAGE_PROXY_MAX_REDIRECTS": "50"}, false, "PRESSROOM_IMAGE_PROXY_MAX_REDIRECTS", nil},
		{"timeout too short", map[string]string{"PRESSROOM_IMAGE_PROXY_TIMEOUT": "1ms"}, false, "PRESSROOM_IMAGE_PROXY_TIMEOUT", nil},
		{"rates read", map[string]string{
			"PRESSROOM_IMAGE_PROXY_CLIENT_RATE": "0", "PRESSROOM_IMAGE_PROXY_ACCOUNT_RATE": "5", "PRESSROOM_IMAGE_PROXY_RATE_WINDOW": "10s",
		}, false, "", func(c Config) bool {
			return c.ClientRate == 0 && c.AccountRate == 5 && c.RateWindow == 10*time.Second
		}},
		{"negative rate", map[string]string{"PRESSROOM_IMAGE_PROXY_CLIENT_RATE": "-1"}, false, "PRESSROOM_IMAGE_PROXY_CLIENT_RATE", nil},
		{"rate window too short", map[string]string{"PRESSROOM_IMAGE_PROXY_RATE_WINDOW": "10ms"}, false, "PRESSROOM_IMAGE_PROXY_RATE_WINDOW", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := LoadConfig(env.Map(tc.vars))
			if err == nil {
				err = cfg.Validate(tc.production)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(cfg) {
				t.Errorf("config %+v", cfg)
			}
		})
	}
}
