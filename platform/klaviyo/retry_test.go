package klaviyo

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	future := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		name     string
		header   string
		min, max time.Duration
	}{
		{"seconds", "3", 3 * time.Second, 3 * time.Second},
		{"zero", "0", 0, 0},
		{"absent", "", time.Second, time.Second},
		{"garbage", "soon", time.Second, time.Second},
		{"http date an hour ahead", future, 59 * time.Minute, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := retryAfter(tt.header); got < tt.min || got > tt.max {
				t.Fatalf("retryAfter(%q) = %v, want %v to %v", tt.header, got, tt.min, tt.max)
			}
		})
	}
}
