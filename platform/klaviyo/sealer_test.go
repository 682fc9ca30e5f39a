package klaviyo_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/klaviyo"
)

func TestSealerRoundTripAndBinding(t *testing.T) {
	s, err := klaviyo.NewSealer("a secret of at least thirty-two bytes")
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := s.Seal(7, "pk_live_123")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("pk_live_123")) {
		t.Fatal("sealed value holds the plaintext")
	}
	if got, err := s.Open(7, sealed); err != nil || got != "pk_live_123" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	if _, err := s.Open(8, sealed); !errors.Is(err, klaviyo.ErrUnsealable) {
		t.Fatalf("Open for another store = %v, want ErrUnsealable", err)
	}
	other, _ := klaviyo.NewSealer("another secret of thirty-two bytes!!")
	if _, err := other.Open(7, sealed); !errors.Is(err, klaviyo.ErrUnsealable) {
		t.Fatalf("Open under another secret = %v, want ErrUnsealable", err)
	}
	again, _ := s.Seal(7, "pk_live_123")
	if bytes.Equal(sealed, again) {
		t.Fatal("two seals of one key are identical: the nonce is not random")
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name       string
		vars       map[string]string
		production bool
		wantErr    bool
	}{
		{"defaults outside production", nil, false, false},
		{"production without a key", nil, true, true},
		{"production with the development key", map[string]string{"PRESSROOM_EMAIL_SECRET_KEY": klaviyo.DevSecretKey}, true, true},
		{"production with a short key", map[string]string{"PRESSROOM_EMAIL_SECRET_KEY": "short"}, true, true},
		{"production with a real key", map[string]string{"PRESSROOM_EMAIL_SECRET_KEY": "0123456789abcdef0123456789abcdef"}, true, false},
		{"a base URL without a scheme", map[string]string{"PRESSROOM_KLAVIYO_BASE_URL": "a.klaviyo.com"}, false, true},
		{"a page too large", map[string]string{"PRESSROOM_EMAIL_SYNC_PAGE_SIZE": "20000"}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := klaviyo.LoadConfig(env.Map(tt.vars))
			if err != nil {
				t.Fatal(err)
			}
			if err := cfg.Validate(tt.production); (err != nil) != tt.wantErr {
				t.Fatalf("Validate = %v, want error %v", err, tt.wantErr)
			}
		})
	}
}
