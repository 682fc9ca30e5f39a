package seal_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pressroom/pressroom/platform/env"
	"github.com/pressroom/pressroom/platform/seal"
)

func TestRoundTripAndBinding(t *testing.T) {
	b, err := seal.New("a secret of at least thirty-two bytes")
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := b.Seal("stripe-secret:gateway:7", "sk_live_123")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(sealed, []byte("sk_live_123")) {
		t.Fatal("sealed value holds the plaintext")
	}
	if got, err := b.Open("stripe-secret:gateway:7", sealed); err != nil || got != "sk_live_123" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	for name, label := range map[string]string{"another row": "stripe-secret:gateway:8", "another purpose": "webhook-secret:gateway:7"} {
		if _, err := b.Open(label, sealed); !errors.Is(err, seal.ErrUnsealable) {
			t.Errorf("%s: Open = %v, want ErrUnsealable", name, err)
		}
	}
	other, _ := seal.New("another secret of thirty-two bytes!!")
	if _, err := other.Open("stripe-secret:gateway:7", sealed); !errors.Is(err, seal.ErrUnsealable) {
		t.Fatalf("Open under another secret = %v, want ErrUnsealable", err)
	}
	if _, err := b.Open("stripe-secret:gateway:7", sealed[:5]); !errors.Is(err, seal.ErrUnsealable) {
		t.Fatalf("Open of a cut value = %v, want ErrUnsealable", err)
	}
	again, _ := b.Seal("stripe-secret:gateway:7", "sk_live_123")
	if bytes.Equal(sealed, again) {
		t.Fatal("two seals of one value are identical: the nonce is not random")
	}
	if _, err := seal.New(""); err == nil {
		t.Fatal("an empty secret was accepted")
	}
}

func TestLast4(t *testing.T) {
	for in, want := range map[string]string{"sk_test_4eC39HqLyjWDarjtT1zdp7dc": "p7dc", "1234567": "", "12345678": "5678", "": ""} {
		if got := seal.Last4(in); got != want {
			t.Errorf("Last4(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestConfigValidateKeys(t *testing.T) {
	for _, tc := range []struct {
		name    string
		key     string
		x       env.Exposure
		wantErr bool
	}{
		{"development without a key", "", env.Exposure{}, false},
		{"production without a key", "", env.Exposure{Production: true}, true},
		{"production with the development key", seal.DevPaymentKey, env.Exposure{Production: true}, true},
		{"production with a short key", "short", env.Exposure{Production: true}, true},
		{"production with a real key", "0123456789abcdef0123456789abcdef", env.Exposure{Production: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := seal.LoadConfig(env.Map(map[string]string{"PRESSROOM_PAYMENT_SECRET_KEY": tc.key}))
			if err != nil {
				t.Fatal(err)
			}
			if err := cfg.ValidateKeys(tc.x); (err != nil) != tc.wantErr {
				t.Fatalf("ValidateKeys = %v, want error %v", err, tc.wantErr)
			}
			if _, err := cfg.PaymentBox(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
