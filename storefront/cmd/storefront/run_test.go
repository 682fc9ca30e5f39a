package main

import (
	"maps"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/platform/env"
)

// TestConfigStripe: Stripe's keys come together; a missing one is named.
func TestConfigStripe(t *testing.T) {
	for _, tc := range []struct {
		name  string
		vars  map[string]string
		wants string // "" for a valid configuration
	}{
		{"test gateway", map[string]string{}, ""},
		{"stripe", map[string]string{"PRESSROOM_STRIPE_SECRET_KEY": "sk_test_1", "PRESSROOM_STRIPE_PUBLISHABLE_KEY": "pk_test_1",
			"PRESSROOM_STRIPE_WEBHOOK_SECRET": "whsec_1"}, ""},
		{"no webhook secret", map[string]string{"PRESSROOM_STRIPE_SECRET_KEY": "sk_test_1", "PRESSROOM_STRIPE_PUBLISHABLE_KEY": "pk_test_1"},
			"PRESSROOM_STRIPE_WEBHOOK_SECRET"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.vars["PRESSROOM_DATABASE_URL"] = "postgres://u:p@127.0.0.1:5432/db?sslmode=disable"
			cfg, err := LoadConfig(env.Map(tc.vars))
			if err == nil {
				err = cfg.Validate()
			}
			if tc.wants == "" && err != nil || tc.wants != "" && (err == nil || !strings.Contains(err.Error(), tc.wants)) {
				t.Errorf("got %v, want an error naming %q", err, tc.wants)
			}
		})
	}
}

// TestConfigPaymentKey: production opens the sellers' Stripe keys only with a real
// PRESSROOM_PAYMENT_SECRET_KEY.
func TestConfigPaymentKey(t *testing.T) {
	key := strings.Repeat("k", 32)
	prod := map[string]string{"PRESSROOM_ENV": "production", "PRESSROOM_DATABASE_URL": "postgres://u:p@127.0.0.1:5432/db?sslmode=disable",
		"PRESSROOM_STOREFRONT_SIGNING_KEY": key, "PRESSROOM_BLOB_SIGNING_KEY": key, "PRESSROOM_MAIL_ALLOW_OUTBOX": "true"}
	for _, tc := range []struct {
		name, key, wants string
	}{
		{"no key", "", "PRESSROOM_PAYMENT_SECRET_KEY"},
		{"short key", "short", "PRESSROOM_PAYMENT_SECRET_KEY"},
		{"real key", strings.Repeat("p", 32), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vars := maps.Clone(prod)
			vars["PRESSROOM_PAYMENT_SECRET_KEY"] = tc.key
			cfg, err := LoadConfig(env.Map(vars))
			if err == nil {
				err = cfg.Validate()
			}
			if tc.wants == "" && err != nil || tc.wants != "" && (err == nil || !strings.Contains(err.Error(), tc.wants)) {
				t.Errorf("got %v, want an error naming %q", err, tc.wants)
			}
		})
	}
}
