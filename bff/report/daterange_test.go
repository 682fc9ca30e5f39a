package report

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// TestDateRangeInUserOffset reads the presets and custom days in the user's utc_offset: the same
// instant is a different day east and west of UTC.
func TestDateRangeInUserOffset(t *testing.T) {
	// Wednesday 2026-04-15 23:30 UTC: already Thursday the 16th at +2, still Wednesday at -5.
	now := time.Date(2026, 4, 15, 23, 30, 0, 0, time.UTC)
	utc := func(s string) string {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UTC().Format(time.RFC3339)
	}
	tests := []struct {
		query    string
		offset   float64
		from, to string
	}{
		{"date_range=today", 0, "2026-04-15T00:00:00Z", "2026-04-16T00:00:00Z"},
		{"date_range=today", 2, "2026-04-16T00:00:00+02:00", "2026-04-17T00:00:00+02:00"},
		{"date_range=today", -5, "2026-04-15T00:00:00-05:00", "2026-04-16T00:00:00-05:00"},
		{"date_range=yesterday", 2, "2026-04-15T00:00:00+02:00", "2026-04-16T00:00:00+02:00"},
		{"date_range=this_week", 0, "2026-04-13T00:00:00Z", "2026-04-16T00:00:00Z"},
		{"date_range=last_week", 0, "2026-04-06T00:00:00Z", "2026-04-13T00:00:00Z"},
		{"date_range=this_month", 5.5, "2026-04-01T00:00:00+05:30", "2026-04-17T00:00:00+05:30"},
		{"date_range=last_month", 0, "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z"},
		{"date_range=last_7_days", 0, "2026-04-09T00:00:00Z", "2026-04-16T00:00:00Z"},
		{"date_range=last_14_days", 0, "2026-04-02T00:00:00Z", "2026-04-16T00:00:00Z"},
		{"date_range=last_30_days", 0, "2026-03-17T00:00:00Z", "2026-04-16T00:00:00Z"},
		{"date_range=custom&from=2026-01-10&to=2026-01-10", -5, "2026-01-10T00:00:00-05:00", "2026-01-11T00:00:00-05:00"},
		{"from=2026-01-10&to=2026-01-12", 0, "2026-01-10T00:00:00Z", "2026-01-13T00:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			c := echo.New().NewContext(httptest.NewRequest("GET", "/?"+tt.query, nil), httptest.NewRecorder())
			from, to, errs := DateRange(c, tt.offset, now)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if from == nil || to == nil {
				t.Fatalf("no range: %v %v", from, to)
			}
			if got := from.UTC().Format(time.RFC3339); got != utc(tt.from) {
				t.Errorf("from %s, want %s", got, utc(tt.from))
			}
			if got := to.UTC().Format(time.RFC3339); got != utc(tt.to) {
				t.Errorf("to %s, want %s", got, utc(tt.to))
			}
		})
	}
}
