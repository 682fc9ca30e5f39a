package webhooks

import (
	"errors"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"
)

// The published test vector of docs/webhooks.md.
const (
	vectorSecret = "whsec_5f3a9c1e2b7d4a608e1f2c3d4b5a6978"
	vectorTime   = 1767225600
	vectorBody   = `{"id":"evt_42","type":"order.created","created_at":"2026-01-01T00:00:00Z","data":{"order_id":7,"number":1001}}`
	vectorHeader = "t=1767225600,v1=158151fdd16df6a50597cf0a949ee09d1c1f3b04d82f2c6af1a028ab0fc9f3fa"
)

// TestSignatureVector checks Sign against the vector, and that docs/webhooks.md publishes the
// same vector, so a receiver written from the docs verifies what the worker sends.
func TestSignatureVector(t *testing.T) {
	if got := Sign(vectorSecret, time.Unix(vectorTime, 0), []byte(vectorBody)); got != vectorHeader {
		t.Fatalf("Sign = %s, want %s", got, vectorHeader)
	}
	doc, err := os.ReadFile("../../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{vectorSecret, "1767225600", vectorBody, vectorHeader} {
		if !strings.Contains(string(doc), s) {
			t.Errorf("docs/webhooks.md does not publish %s", s)
		}
	}
}

func TestCheck(t *testing.T) {
	cfg := DefaultConfig()
	ok := []Input{
		{Kind: KindCustom, URL: "https://hooks.example.com/in", Events: []string{"order.created"}},
		{Kind: KindSlack, URL: "https://hooks.slack.com/services/T0/B0/x", Events: []string{"order.created", "order.created"}},
		{Kind: KindDiscord, URL: "https://discord.com/api/webhooks/1/abc", Events: []string{"order.status_changed"}},
		{Kind: KindTeams, URL: "https://example.webhook.office.com/webhookb2/x", Events: []string{"order.tracking_changed"}},
		{Kind: KindTelegram, BotToken: "123456:ABCdefGHIjklMNOpqrSTUvwx", ChatID: "-100123", Events: []string{"order.created"}},
	}
	for _, in := range ok {
		if err := cfg.Check(&in); err != nil {
			t.Errorf("%+v: %v", in, err)
		}
	}
	bad := []struct {
		in    Input
		field string
		msg   string
	}{
		{Input{Kind: "sms", URL: "https://a.example/", Events: []string{"order.created"}}, "kind", MsgBadKind},
		{Input{Kind: KindCustom, Events: []string{"order.created"}}, "url", MsgURLRequired},
		{Input{Kind: KindCustom, URL: "ftp://a.example/", Events: []string{"order.created"}}, "url", MsgBadURL},
		{Input{Kind: KindCustom, URL: "http://127.0.0.1:8080/", Events: []string{"order.created"}}, "url", MsgForbiddenURL},
		{Input{Kind: KindCustom, URL: "http://169.254.169.254/latest/meta-data", Events: []string{"order.created"}}, "url", MsgForbiddenURL},
		{Input{Kind: KindCustom, URL: "http://10.0.0.7/", Events: []string{"order.created"}}, "url", MsgForbiddenURL},
		{Input{Kind: KindCustom, URL: "http://[::1]/", Events: []string{"order.created"}}, "url", MsgForbiddenURL},
		{Input{Kind: KindCustom, URL: "http://2130706433/", Events: []string{"order.created"}}, "url", MsgForbiddenURL},
		{Input{Kind: KindSlack, URL: "https://evil.example/services/x", Events: []string{"order.created"}}, "url",
			"The URL must be a Slack webhook address starting with https://hooks.slack.com/."},
		{Input{Kind: KindCustom, URL: "https://a.example/"}, "events", MsgNoEvents},
		{Input{Kind: KindCustom, URL: "https://a.example/", Events: []string{"order.paid"}}, "events", `Unknown event "order.paid".`},
		{Input{Kind: KindTelegram, BotToken: "nope", ChatID: "1", Events: []string{"order.created"}}, "bot_token", MsgBotToken},
	}
	for _, tc := range bad {
		err := cfg.Check(&tc.in)
		ie, ok := errors.AsType[*InvalidError](err)
		if !ok || ie.Errors[0].Field != tc.field || ie.Errors[0].Message != tc.msg {
			t.Errorf("%+v: %v, want %s: %s", tc.in, err, tc.field, tc.msg)
		}
	}
	// Tests point endpoints at loopback receivers through Allow.
	cfg.Allow = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	if err := cfg.Check(&Input{Kind: KindCustom, URL: "http://127.0.0.1:8080/", Events: []string{"order.created"}}); err != nil {
		t.Fatal(err)
	}
	cfg.production = true
	if cfg.Validate() == nil {
		t.Fatal("production accepted PRESSROOM_WEBHOOK_ALLOW")
	}
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute}
	for i, w := range want {
		if got := Backoff(i+1, 30*time.Second, time.Hour); got != w {
			t.Errorf("Backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := Backoff(40, 30*time.Second, time.Hour); got != time.Hour {
		t.Errorf("Backoff(40) = %v", got)
	}
}

func TestSummary(t *testing.T) {
	tests := map[string]string{
		`{"event":"order.created","number":1001,"total":{"amount":1550,"currency":"USD"}}`:                      "New order 1001: $15.50",
		`{"event":"order.status_changed","number":1001,"status":"processing","from_status":"pending"}`:          "Order 1001 is now in production (was pending)",
		`{"event":"order.tracking_changed","number":7,"shipments":[{"carrier":"DHL","tracking_number":"JD1"}]}`: "Order 7 tracking: DHL JD1",
	}
	for payload, want := range tests {
		typ := payload[10 : strings.Index(payload[10:], `"`)+10]
		if got := Summary(typ, []byte(payload)); got != want {
			t.Errorf("Summary(%s) = %q, want %q", typ, got, want)
		}
	}
}
