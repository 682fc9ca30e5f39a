package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/pressroom/pressroom/bff/access"
	bffhooks "github.com/pressroom/pressroom/bff/webhooks"
	"github.com/pressroom/pressroom/commerce/webhooks"
)

// The notification settings: endpoints are checked (422 with the field), kept per seller (another
// seller's ids answer 404), and their log pages, replays and test sends work on real rows.
func TestNotificationSettings(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	base := "/api" + bffhooks.Base

	for _, tc := range []struct {
		body       map[string]any
		field, msg string
	}{
		{map[string]any{"kind": "custom", "url": "http://127.0.0.1:9/hook", "events": []string{"order.created"}}, "url", webhooks.MsgForbiddenURL},
		{map[string]any{"kind": "custom", "url": "http://169.254.169.254/", "events": []string{"order.created"}}, "url", webhooks.MsgForbiddenURL},
		{map[string]any{"kind": "custom", "url": "gopher://a.example/", "events": []string{"order.created"}}, "url", webhooks.MsgBadURL},
		{map[string]any{"kind": "pager", "url": "https://a.example/", "events": []string{"order.created"}}, "kind", webhooks.MsgBadKind},
		{map[string]any{"kind": "custom", "url": "https://a.example/", "events": []string{}}, "events", webhooks.MsgNoEvents},
	} {
		r := s.do("POST", base, seller, tc.body)
		if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != tc.field || r.body.Errors[0].Message != tc.msg {
			t.Errorf("%v: %d %s", tc.body, r.status, r.raw)
		}
	}

	r := s.do("POST", base, seller, map[string]any{"kind": "custom", "name": "ERP", "url": "https://hooks.example.com/in",
		"events": []string{"order.created", "order.status_changed"}})
	if r.status != 201 || r.body.Message != bffhooks.MsgCreated {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	ep := r.body.Data.(map[string]any)
	id := int64(ep["id"].(float64))
	if !strings.HasPrefix(ep["secret"].(string), "whsec_") || ep["kind_label"] != "webhook" || ep["enabled"] != true {
		t.Fatalf("endpoint %v", ep)
	}
	r = s.do("POST", base, seller, map[string]any{"kind": "telegram", "bot_token": "123456:ABCdefGHIjklMNOpqrSTUvwx", "chat_id": "@shopnews",
		"events": []string{"order.created"}})
	if r.status != 201 {
		t.Fatalf("telegram: %d %s", r.status, r.raw)
	}
	if tg := r.body.Data.(map[string]any); tg["bot_token"] != "123456:ABCdefGHIjklMNOpqrSTUvwx" || tg["url"] != "" || tg["secret"] != "" {
		t.Fatalf("telegram endpoint %v", tg)
	}
	if r := s.do("GET", base, seller, nil); r.status != 200 || len(r.body.Data.([]any)) != 2 {
		t.Fatalf("list: %d %s", r.status, r.raw)
	}
	r = s.do("PUT", fmt.Sprintf("%s/%d", base, id), seller, map[string]any{"kind": "custom", "name": "ERP", "url": "https://hooks.example.com/v2",
		"events": []string{"order.created"}, "enabled": false})
	if r.status != 200 || r.body.Data.(map[string]any)["enabled"] != false || r.body.Data.(map[string]any)["secret"] != ep["secret"] {
		t.Fatalf("update: %d %s", r.status, r.raw)
	}

	// Another seller sees none of it.
	s.addUser("other-seller@example.com", []string{access.RoleSeller}, []string{}, true, false)
	other := s.mint("other-seller@example.com", "own", "", false)
	for _, c := range []struct{ method, path string }{
		{"GET", fmt.Sprintf("%s/%d", base, id)}, {"PUT", fmt.Sprintf("%s/%d", base, id)}, {"DELETE", fmt.Sprintf("%s/%d", base, id)},
		{"GET", fmt.Sprintf("%s/%d/deliveries", base, id)}, {"POST", fmt.Sprintf("%s/%d/test", base, id)},
	} {
		var body any
		if c.method == "PUT" {
			body = map[string]any{"kind": "custom", "url": "https://evil.example/", "events": []string{"order.created"}}
		}
		if r := s.do(c.method, c.path, other, body); r.status != 404 || r.body.Message != bffhooks.MsgNotFound {
			t.Errorf("other seller %s %s: %d %s", c.method, c.path, r.status, r.raw)
		}
	}
	if r := s.do("GET", base, other, nil); r.status != 200 || len(r.body.Data.([]any)) != 0 {
		t.Fatalf("other seller's list: %s", r.raw)
	}
	// A team member inside the seller's account may not read them.
	switched := s.mint("seller@example.com", "switched", "team@example.com", true)
	if r := s.do("GET", base, switched, nil); r.status != 403 {
		t.Fatalf("switched: %d", r.status)
	}

	// A test send is a delivery in the log; a delivery that failed can be replayed.
	r = s.do("POST", fmt.Sprintf("%s/%d/test", base, id), seller, nil)
	if r.status != 202 || r.body.Message != bffhooks.MsgTestQueued {
		t.Fatalf("test: %d %s", r.status, r.raw)
	}
	did := int64(r.body.Data.(map[string]any)["id"].(float64))
	s.app.DB.MustExec(`UPDATE webhook_deliveries SET status = 'failed', attempts = 1, last_status = 500 WHERE id = $1`, did)
	s.app.DB.MustExec(`INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, response) VALUES ($1, now(), 500, 12, 'boom')`, did)
	r = s.do("GET", fmt.Sprintf("%s/%d/deliveries?per_page=10", base, id), seller, nil)
	var page struct {
		Data []struct {
			EventType string `json:"event_type"`
			Status    string `json:"status"`
		} `json:"data"`
		Total int `json:"total"`
	}
	if err := json.Unmarshal(r.raw, &page); err != nil || r.status != 200 || page.Total != 1 || page.Data[0].EventType != webhooks.EventTest ||
		page.Data[0].Status != "failed" {
		t.Fatalf("log: %d %s", r.status, r.raw)
	}
	r = s.do("GET", fmt.Sprintf("%s/%d/deliveries/%d/attempts", base, id, did), seller, nil)
	if r.status != 200 || len(r.body.Data.([]any)) != 1 || r.body.Data.([]any)[0].(map[string]any)["response"] != "boom" {
		t.Fatalf("attempts: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", fmt.Sprintf("%s/%d/deliveries/%d/replay", base, id, did), seller, nil); r.status != 200 || r.body.Message != bffhooks.MsgReplayed {
		t.Fatalf("replay: %d %s", r.status, r.raw)
	}
	var status string
	s.app.DB.Get(&status, `SELECT status FROM webhook_deliveries WHERE id = $1`, did)
	if status != webhooks.StatusPending {
		t.Fatalf("replayed delivery is %s", status)
	}
	if r := s.do("POST", fmt.Sprintf("%s/%d/deliveries/%d/replay", base, id, did+1000), seller, nil); r.status != 404 || r.body.Message != bffhooks.MsgDeliveryNotFound {
		t.Fatalf("replay of a missing delivery: %d %s", r.status, r.raw)
	}
	if r := s.do("DELETE", fmt.Sprintf("%s/%d", base, id), seller, nil); r.status != 200 {
		t.Fatalf("delete: %d %s", r.status, r.raw)
	}
	var n int
	s.app.DB.GetContext(context.Background(), &n, `SELECT count(*) FROM webhook_deliveries WHERE id = $1`, did)
	if n != 0 {
		t.Fatal("the deleted endpoint's log stayed")
	}
}
