package storelink

import (
	"strings"
	"testing"

	"github.com/pressroom/pressroom/platform/env"
)

// TestConfig reads the two variables, trims the URL's slash and names the variable at fault.
func TestConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		vars map[string]string
		url  string
		err  string
	}{
		{"defaults", nil, "http://127.0.0.1:8082", ""},
		{"public address", map[string]string{"PRESSROOM_STOREFRONT_PUBLIC_URL": "https://shops.example.com/"}, "https://shops.example.com", ""},
		{"no scheme", map[string]string{"PRESSROOM_STOREFRONT_PUBLIC_URL": "shops.example.com"}, "", "PRESSROOM_STOREFRONT_PUBLIC_URL"},
		{"a query", map[string]string{"PRESSROOM_STOREFRONT_PUBLIC_URL": "https://shops.example.com/?a=1"}, "", "PRESSROOM_STOREFRONT_PUBLIC_URL"},
		{"short key", map[string]string{"PRESSROOM_STOREFRONT_SIGNING_KEY": "short"}, "", "PRESSROOM_STOREFRONT_SIGNING_KEY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := LoadConfig(env.Map(tc.vars))
			if err != nil {
				t.Fatal(err)
			}
			err = cfg.Validate()
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("err %v, want one naming %s", err, tc.err)
				}
				return
			}
			if err != nil || cfg.URL != tc.url {
				t.Fatalf("url %q err %v, want %q", cfg.URL, err, tc.url)
			}
		})
	}
	if got := DefaultConfig().Store("demo"); got != "http://127.0.0.1:8082/s/demo" {
		t.Errorf("store base %q", got)
	}
}
