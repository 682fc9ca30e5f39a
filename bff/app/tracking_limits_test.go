package app

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/tracking"
)

// TestTrackingIsBounded: the anonymous click stores at most MaxEventsPerHour rows per client
// address an hour, however the payload varies, other clients keep theirs, and an oversized body is
// refused before it is read.
func TestTrackingIsBounded(t *testing.T) {
	s := newStackWith(t, map[string]string{"PRESSROOM_TRUST_PROXY": "true"})
	click := func(client string, i int) reply {
		return s.do("POST", "/api/utm-campaign/track", "", map[string]any{
			"utm_campaign": fmt.Sprint("c-", i), "client_info": map[string]string{"visitor_id": fmt.Sprint("v-", i)},
		}, "X-Forwarded-For", client)
	}
	for i := range tracking.MaxEventsPerHour {
		if r := click("203.0.113.9", i); r.status != 200 {
			t.Fatalf("click %d: %d %s", i+1, r.status, r.raw)
		}
	}
	r := click("203.0.113.9", tracking.MaxEventsPerHour)
	if r.status != 429 || r.body.Message != tracking.MsgTooMany || r.header.Get("Retry-After") == "" {
		t.Fatalf("click over the hour's bound: %d %s", r.status, r.raw)
	}
	var rows int
	s.app.DB.Get(&rows, `SELECT count(*) FROM utm_campaign_tracks WHERE ip = '203.0.113.9'`)
	if rows != tracking.MaxEventsPerHour {
		t.Fatalf("%d rows stored for one client, want %d", rows, tracking.MaxEventsPerHour)
	}
	if r := click("203.0.113.10", 0); r.status != 200 {
		t.Fatalf("another client: %d %s", r.status, r.raw)
	}
	big := `{"utm_campaign":"x","client_info":{"user_agent":"` + strings.Repeat("a", 20<<10) + `"}}`
	req, _ := http.NewRequest("POST", s.srv.URL+"/api/utm-campaign/track", bytes.NewReader([]byte(big)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", "203.0.113.11")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("20 KiB body: %d, want 413", res.StatusCode)
	}
}
