package auth

import (
	"testing"
	"time"
)

// The hours from UTC follow the zone's clock changes: a user in Berlin is an hour ahead in winter
// and two in summer, whatever instant the user was loaded at.
func TestUTCOffsetFollowsDaylightSavingTime(t *testing.T) {
	u := User{zone: loadZone("Europe/Berlin")}
	winter := time.Date(2026, time.January, 15, 12, 0, 0, 0, time.UTC)
	summer := time.Date(2026, time.July, 15, 12, 0, 0, 0, time.UTC)
	if got := u.UTCOffset(winter); got != 1 {
		t.Errorf("Berlin in January: %v, want 1", got)
	}
	if got := u.UTCOffset(summer); got != 2 {
		t.Errorf("Berlin in July: %v, want 2", got)
	}
	// The hour the clocks go forward: 01:59:59 UTC is still winter time, 01:00 UTC on the last
	// Sunday of March (29 March 2026) already summer time.
	if got := u.UTCOffset(time.Date(2026, time.March, 29, 0, 59, 59, 0, time.UTC)); got != 1 {
		t.Errorf("just before the change: %v", got)
	}
	if got := u.UTCOffset(time.Date(2026, time.March, 29, 1, 0, 0, 0, time.UTC)); got != 2 {
		t.Errorf("just after the change: %v", got)
	}
	if got := (&User{zone: loadZone("Asia/Kolkata")}).UTCOffset(summer); got != 5.5 {
		t.Errorf("Kolkata: %v, want 5.5", got)
	}
	if got := (&User{}).UTCOffset(summer); got != 0 {
		t.Errorf("no zone: %v, want UTC", got)
	}
}

func TestValidZone(t *testing.T) {
	for name, want := range map[string]bool{
		"UTC": true, "Europe/Berlin": true, "America/Argentina/Buenos_Aires": true, "Etc/GMT-2": true,
		"": false, "Local": false, "Mars/Olympus_Mons": false, "europe/berlin": false,
		"posix/Europe/Berlin": false, "right/UTC": false, "../etc/passwd": false, "Europe/Berlin ": false,
	} {
		if got := validZone(name); got != want {
			t.Errorf("validZone(%q) = %v, want %v", name, got, want)
		}
	}
}
