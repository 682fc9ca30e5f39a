package env

import (
	"strings"
	"testing"
)

func TestLoopback(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"127.9.9.9:8080", true},
		{"[::1]:8080", true},
		{"localhost:8080", true},
		{"LOCALHOST:8080", true},
		{"[::ffff:127.0.0.1]:8080", true},
		{":8080", false},
		{"0.0.0.0:8080", false},
		{"[::]:8080", false},
		{"10.0.0.5:8080", false},
		{"pressroom.example.com:8080", false},
		{"localhost.example.com:8080", false},
		{"8080", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			if got := Loopback(tt.addr); got != tt.want {
				t.Fatalf("Loopback(%q) = %v, want %v", tt.addr, got, tt.want)
			}
		})
	}
}

func TestExposureCheckKey(t *testing.T) {
	const dev, real = "development-key-development-key-00", "0123456789abcdef0123456789abcdef"
	public := Exposure{AddrVar: "PRESSROOM_HTTP_ADDR", Addr: "0.0.0.0:8080"}
	tests := []struct {
		name  string
		x     Exposure
		value string
		want  []string // substrings of the error; nil: no error
	}{
		{"loopback may use the development key", Exposure{AddrVar: "PRESSROOM_HTTP_ADDR", Addr: "127.0.0.1:8080"}, "", nil},
		{"no listen address may use the development key", Exposure{}, "", nil},
		{"a public address needs a key", public, "", []string{"K is required", "PRESSROOM_HTTP_ADDR=0.0.0.0:8080", "PRESSROOM_ENV=production"}},
		{"a public address refuses the development key", public, dev, []string{"K is the public development key", "PRESSROOM_HTTP_ADDR"}},
		{"a public address refuses a short key", public, "short", []string{"K must be at least 32 bytes", "PRESSROOM_HTTP_ADDR"}},
		{"a public address with a real key", public, real, nil},
		{"production on loopback needs a key", Exposure{Production: true, AddrVar: "PRESSROOM_HTTP_ADDR", Addr: "127.0.0.1:8080"}, "", []string{"K is required", "PRESSROOM_ENV=production"}},
		{"production with a real key", Exposure{Production: true}, real, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.x.CheckKey("K", tt.value, dev, 32)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want one naming %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}
