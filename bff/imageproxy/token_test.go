package imageproxy

import (
	"testing"
	"time"
)

func TestTokenExpiry(t *testing.T) {
	base := time.Date(2026, 3, 1, 15, 30, 0, 0, time.UTC)
	s := signer{key: []byte(DevKey), ttl: 7 * 24 * time.Hour, now: func() time.Time { return base }}
	tok := s.sign("https://cdn.example.com/a.png")
	tests := []struct {
		name  string
		at    time.Time
		valid bool
	}{
		{"now", base, true},
		{"after ttl, same day", base.Add(7*24*time.Hour + 8*time.Hour), true},
		{"at expiry", time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC), false},
		{"a month later", base.Add(30 * 24 * time.Hour), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := s
			v.now = func() time.Time { return tc.at }
			if err := v.verify("https://cdn.example.com/a.png", tok); (err == nil) != tc.valid {
				t.Fatalf("verify = %v, want valid %v", err, tc.valid)
			}
		})
	}
	same := s
	same.now = func() time.Time { return base.Add(8 * time.Hour) }
	if same.sign("https://cdn.example.com/a.png") != tok {
		t.Error("token changed within the day")
	}
}
