package app

import (
	"testing"
	"time"

	"github.com/pressroom/pressroom/bff/auth"
)

// hoursFromUTC is what utc_offset must say for zone at t.
func hoursFromUTC(t *testing.T, zone string, at time.Time) float64 {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	_, secs := at.In(loc).Zone()
	return float64(secs) / 3600
}

// The time zone and display currency are saved through PUT /api/settings/general, checked, and
// shown by the very next /api/me on every process, utc_offset worked out from the zone.
func TestGeneralSettings(t *testing.T) {
	one := newStack(t)
	two := one.second()
	seller := one.mint("seller@example.com", "own", "", false)
	for _, s := range []*stack{one, two} {
		for range 2 { // cached on both processes
			me := s.me(seller)
			if me["timezone"] != "UTC" || me["utc_offset"] != float64(0) || me["currency"] != "USD" {
				t.Fatalf("defaults: timezone %v utc_offset %v currency %v", me["timezone"], me["utc_offset"], me["currency"])
			}
		}
	}

	for _, tt := range []struct {
		body                   map[string]any
		wantField, wantMessage string
	}{
		{map[string]any{"timezone": "Mars/Olympus_Mons"}, "timezone", auth.MsgUnknownTimezone},
		{map[string]any{"timezone": "Local"}, "timezone", auth.MsgUnknownTimezone},
		{map[string]any{"timezone": ""}, "timezone", auth.MsgUnknownTimezone},
		{map[string]any{"currency": "GBP"}, "currency", auth.MsgUnknownCurrency},
		{map[string]any{"timezone": "Asia/Tokyo", "currency": "GBP"}, "currency", auth.MsgUnknownCurrency},
	} {
		r := one.do("PUT", "/api/settings/general", seller, tt.body)
		if r.status != 422 || len(r.body.Errors) != 1 || r.body.Errors[0].Field != tt.wantField || r.body.Errors[0].Message != tt.wantMessage {
			t.Errorf("%v: %d %s", tt.body, r.status, r.raw)
		}
	}
	if me := two.me(seller); me["timezone"] != "UTC" || me["currency"] != "USD" {
		t.Fatalf("a refused change changed nothing: %v %v", me["timezone"], me["currency"])
	}

	r := one.do("PUT", "/api/settings/general", seller, map[string]any{"timezone": "America/New_York", "currency": "eur"})
	if r.status != 200 || r.body.Message != auth.MsgGeneralSettingsSaved {
		t.Fatalf("save: %d %s", r.status, r.raw)
	}
	for name, s := range map[string]*stack{"this process": one, "the other process": two} {
		before := time.Now()
		me := s.me(seller)
		after := time.Now()
		if me["timezone"] != "America/New_York" || me["currency"] != "EUR" {
			t.Errorf("%s: timezone %v currency %v", name, me["timezone"], me["currency"])
		}
		if got := me["utc_offset"]; got != hoursFromUTC(t, "America/New_York", before) && got != hoursFromUTC(t, "America/New_York", after) {
			t.Errorf("%s: utc_offset %v for New York", name, got)
		}
	}
	// A field left out stays as it was.
	if r := one.do("PUT", "/api/settings/general", seller, map[string]any{"timezone": "Asia/Kolkata"}); r.status != 200 {
		t.Fatalf("save the zone alone: %d %s", r.status, r.raw)
	}
	if me := two.me(seller); me["timezone"] != "Asia/Kolkata" || me["utc_offset"] != 5.5 || me["currency"] != "EUR" {
		t.Fatalf("zone alone: %v %v %v", me["timezone"], me["utc_offset"], me["currency"])
	}

	// The seller's settings are not a team member's to change from inside the seller's account.
	switched := one.mint("seller@example.com", "switched", "team@example.com", true)
	if r := one.do("PUT", "/api/settings/general", switched, map[string]any{"timezone": "UTC"}); r.status != 403 {
		t.Fatalf("switched member: %d %s", r.status, r.raw)
	}
	if r := one.do("PUT", "/api/settings/general", "", map[string]any{"timezone": "UTC"}); r.status != 401 {
		t.Fatalf("signed out: %d", r.status)
	}
}
