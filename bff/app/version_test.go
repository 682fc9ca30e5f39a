package app

import (
	"testing"
	"time"

	"github.com/pressroom/pressroom/bff/version"
)

// TestVersion checks GET /api/api3/version: anyone may poll it, it answers the configured build
// identity as data.last_update, and no cache may keep the answer.
func TestVersion(t *testing.T) {
	tests := []struct {
		name  string
		vars  map[string]string
		want  string
		token func(s *stack) string
	}{
		{name: "PRESSROOM_BUILD_ID is reported", vars: map[string]string{"PRESSROOM_BUILD_ID": "2026.11.22-4f2c9e1"}, want: "2026.11.22-4f2c9e1"},
		{name: "a signed-in seller reads the same", vars: map[string]string{"PRESSROOM_BUILD_ID": "build-7"}, want: "build-7",
			token: func(s *stack) string { return s.login("seller", "seller@example.com") }},
		{name: "default: the build linked in, else the start time", want: version.DefaultConfig().BuildID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStackWith(t, tt.vars)
			var token string
			if tt.token != nil {
				token = tt.token(s)
			}
			r := s.do("GET", "/api/api3/version", token, nil)
			if r.status != 200 || !r.body.Success {
				t.Fatalf("status %d: %s", r.status, r.raw)
			}
			data, _ := r.body.Data.(map[string]any)
			if got := data["last_update"]; got != tt.want {
				t.Fatalf("last_update = %v, want %q: %s", got, tt.want, r.raw)
			}
			if cc := r.header.Get("Cache-Control"); cc != "no-store" {
				t.Fatalf("Cache-Control = %q, want no-store", cc)
			}
		})
	}
}

func TestVersionDefaultIsTheStartTime(t *testing.T) {
	got := version.DefaultConfig().BuildID
	at, err := time.Parse(time.RFC3339, got)
	if err != nil {
		t.Fatalf("default build id %q is not an RFC 3339 time (was a build id linked in?): %v", got, err)
	}
	if at.After(time.Now()) {
		t.Fatalf("default build id %q is in the future", got)
	}
}
