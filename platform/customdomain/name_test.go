package customdomain

import (
	"errors"
	"testing"
)

func TestNormalize(t *testing.T) {
	reserved := []string{"localhost", "shops.pressroom.test", "dashboard.pressroom.test"}
	cases := []struct {
		name, in, want string
		err            error
	}{
		{"plain", "shop.example.com", "shop.example.com", nil},
		{"upper case and spaces", "  Shop.Example.COM ", "shop.example.com", nil},
		{"trailing dot", "shop.example.com.", "shop.example.com", nil},
		{"unicode becomes punycode", "Bücher.example", "xn--bcher-kva.example", nil},
		{"already punycode", "xn--bcher-kva.example", "xn--bcher-kva.example", nil},
		{"empty", "   ", "", ErrEmpty},
		{"scheme", "https://shop.example.com", "", ErrNotBare},
		{"path", "shop.example.com/store", "", ErrNotBare},
		{"port", "shop.example.com:8080", "", ErrNotBare},
		{"inner space", "shop example.com", "", ErrNotBare},
		{"ipv4", "127.0.0.1", "", ErrIP},
		{"ipv6", "::1", "", ErrIP},
		{"ipv6 bracketed", "[2001:db8::1]", "", ErrIP},
		{"numeric top-level", "10.1", "", ErrIP},
		{"single label", "shop", "", ErrNotFull},
		{"underscore", "my_shop.example.com", "", ErrInvalid},
		{"bytes that are not UTF-8", "\xbc.A", "", ErrInvalid},
		{"punycode of a disallowed character", "xn--zn7c.a", "", ErrInvalid},
		{"leading hyphen", "-shop.example.com", "", ErrInvalid},
		{"empty label", "shop..example.com", "", ErrInvalid},
		{"label too long", "a123456789012345678901234567890123456789012345678901234567890123.example.com", "", ErrInvalid},
		{"store domain itself", "localhost", "", ErrNotFull},
		{"under the store domain", "demo.localhost", "", ErrReserved},
		{"platform host", "Dashboard.Pressroom.Test", "", ErrReserved},
		{"under the platform's shops", "a.shops.pressroom.test", "", ErrReserved},
		{"look-alike of a platform host", "evilshops.pressroom.test", "evilshops.pressroom.test", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Normalize(c.in, reserved...)
			if !errors.Is(err, c.err) || got != c.want {
				t.Fatalf("Normalize(%q) = %q, %v; want %q, %v", c.in, got, err, c.want, c.err)
			}
		})
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"shop.example.com", "Bücher.example", "127.0.0.1", "a..b", "xn--", "https://x.y/z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Normalize(in, "localhost")
		if err != nil {
			return
		}
		again, err := Normalize(got, "localhost")
		if err != nil || again != got {
			t.Fatalf("Normalize(%q) = %q is not stable: %q, %v", in, got, again, err)
		}
	})
}
