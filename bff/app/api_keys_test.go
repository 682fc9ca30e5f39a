package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/apikeys"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/publicapi"
)

// createKey makes a key through the settings endpoint and answers its id and secret.
func (s *stack) createKey(token string, body map[string]any) (int64, string) {
	s.t.Helper()
	r := s.do("POST", "/api/settings/api-keys", token, body)
	if r.status != 200 {
		s.t.Fatalf("create key: %d %s", r.status, r.raw)
	}
	d := r.body.Data.(map[string]any)
	return int64(d["key"].(map[string]any)["id"].(float64)), d["secret"].(string)
}

// TestAPIKeys: a seller makes a key (the secret answered once, its prefix kept), reads their own
// stores, campaigns and orders with it, never another seller's (404); a call outside the key's
// scopes is 403; the key is no session (401 on the screens' API) and a session is no key (401 on
// /api/v1); every use is audited; a revoked or expired key is refused on the very next call.
func TestAPIKeys(t *testing.T) {
	s := newStack(t)
	seller := s.mint("seller@example.com", "own", "", false)
	team := s.mint("seller@example.com", "switched", "team@example.com", true)
	s.addUser("other@example.com", []string{"seller"}, []string{}, true, false)
	other := s.mint("other@example.com", "own", "", false)
	var otherCampaign int64
	if err := s.app.DB.Get(&otherCampaign, `INSERT INTO campaigns (user_id, name) SELECT id, 'Not yours' FROM users
		WHERE email = 'other@example.com' RETURNING id`); err != nil {
		t.Fatal(err)
	}
	orderID, number := s.buy("buyer@example.com", "Ada Buyer", 2)
	if _, err := s.app.DB.Exec(`INSERT INTO shipments (order_item_id, carrier, tracking) SELECT id, 'DHL', 'TRACK-1' FROM order_items WHERE order_id = $1`, orderID); err != nil {
		t.Fatal(err)
	}

	bad := map[string]any{"name": " ", "scopes": []string{"store", "everything"}, "expires_at": "2001-01-01"}
	if r := s.do("POST", "/api/settings/api-keys", seller, bad); r.status != 422 || len(r.body.Errors) != 3 {
		t.Fatalf("bad key: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/settings/api-keys", team, map[string]any{"name": "x", "scopes": []string{"orders"}}); r.status != 403 {
		t.Fatalf("a team member switched into the account makes a key: %d %s", r.status, r.raw)
	}
	keyID, secret := s.createKey(seller, map[string]any{"name": "Shop backend", "scopes": []string{"store", "product"}, "expires_at": time.Now().AddDate(0, 1, 0).Format(time.DateOnly)})
	if !strings.HasPrefix(secret, "prk_live_") || len(secret) < 50 {
		t.Fatalf("secret %q", secret)
	}
	orderKeyID, orderKey := s.createKey(seller, map[string]any{"name": "Orders sync", "scopes": []string{"orders"}, "test_mode": true})
	if !strings.HasPrefix(orderKey, "prk_test_") {
		t.Fatalf("test-mode secret %q", orderKey)
	}
	r := s.do("GET", "/api/settings/api-keys", seller, nil)
	if r.status != 200 || strings.Contains(string(r.raw), secret) || !strings.Contains(string(r.raw), secret[:17]) {
		t.Fatalf("list must show the prefix and never the secret: %d %s", r.status, r.raw)
	}
	var stored []byte
	if err := s.app.DB.Get(&stored, `SELECT secret_hash FROM api_keys WHERE id = $1`, keyID); err != nil || len(stored) != 32 || strings.Contains(string(stored), secret) {
		t.Fatalf("stored secret: %v %q", err, stored)
	}
	if r := s.do("GET", "/api/settings/api-keys", other, nil); strings.Contains(string(r.raw), "Shop backend") {
		t.Fatalf("another seller lists the keys: %s", r.raw)
	}

	r = s.do("GET", "/api/v1/stores", secret, nil)
	var stores envelope.Page[publicapi.Store]
	if err := json.Unmarshal(r.raw, &stores); err != nil || r.status != 200 || stores.Total != 1 || stores.Data[0].Slug == "" {
		t.Fatalf("stores: %d %s", r.status, r.raw)
	}
	if r.header.Get("RateLimit-Limit") != "600" || r.header.Get("RateLimit-Remaining") != "599" || r.header.Get("RateLimit-Reset") == "" {
		t.Errorf("rate-limit headers %v", r.header)
	}
	r = s.do("GET", "/api/v1/campaigns?per_page=1", secret, nil)
	var camps envelope.Page[publicapi.Campaign]
	if err := json.Unmarshal(r.raw, &camps); err != nil || r.status != 200 || camps.Total < 1 || len(camps.Data) != 1 || camps.PerPage != 1 {
		t.Fatalf("campaigns: %d %s", r.status, r.raw)
	}
	for _, c := range camps.Data {
		if c.ID == otherCampaign {
			t.Fatal("another seller's campaign listed")
		}
	}
	// The count comes with the page's rows; a page past the end still counts them all.
	r = s.do("GET", "/api/v1/campaigns?per_page=1&page=2", secret, nil)
	var second envelope.Page[publicapi.Campaign]
	if err := json.Unmarshal(r.raw, &second); err != nil || r.status != 200 || second.Total != camps.Total || len(second.Data) != min(1, camps.Total-1) {
		t.Fatalf("second page: %d %s", r.status, r.raw)
	}
	r = s.do("GET", "/api/v1/campaigns?per_page=1&page=999", secret, nil)
	var past envelope.Page[publicapi.Campaign]
	if err := json.Unmarshal(r.raw, &past); err != nil || r.status != 200 || past.Total != camps.Total || len(past.Data) != 0 {
		t.Fatalf("page past the end: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", fmt.Sprintf("/api/v1/campaigns/%d", camps.Data[0].ID), secret, nil); r.status != 200 {
		t.Fatalf("campaign: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", fmt.Sprintf("/api/v1/campaigns/%d", otherCampaign), secret, nil); r.status != 404 || r.body.Message != publicapi.MsgCampaignNotFound {
		t.Fatalf("another seller's campaign: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/v1/campaigns?per_page=500", secret, nil); r.status != 422 || r.body.Errors[0].Field != "per_page" {
		t.Fatalf("bad per_page: %d %s", r.status, r.raw)
	}
	// Scopes: the store+product key cannot read orders, the orders key cannot read stores.
	if r := s.do("GET", "/api/v1/orders", secret, nil); r.status != 403 || !strings.Contains(r.body.Message, "orders scope") {
		t.Fatalf("orders without the orders scope: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/v1/stores", orderKey, nil); r.status != 403 {
		t.Fatalf("stores without the store scope: %d %s", r.status, r.raw)
	}
	r = s.do("GET", "/api/v1/orders?q="+number, orderKey, nil)
	var orders envelope.Page[publicapi.Order]
	if err := json.Unmarshal(r.raw, &orders); err != nil || r.status != 200 || orders.Total != 1 || orders.Data[0].ID != orderID || orders.Data[0].Total <= 0 {
		t.Fatalf("orders: %d %s", r.status, r.raw)
	}
	r = s.do("GET", fmt.Sprintf("/api/v1/orders/%d", orderID), orderKey, nil)
	if r.status != 200 || len(r.body.Data.(map[string]any)["items"].([]any)) != 1 {
		t.Fatalf("order: %d %s", r.status, r.raw)
	}
	r = s.do("GET", fmt.Sprintf("/api/v1/orders/%d/shipments", orderID), orderKey, nil)
	if r.status != 200 || r.body.Data.([]any)[0].(map[string]any)["tracking"] != "TRACK-1" {
		t.Fatalf("shipments: %d %s", r.status, r.raw)
	}
	// Another seller's key never reaches this seller's order.
	_, otherKey := s.createKey(other, map[string]any{"name": "Mine", "scopes": []string{"orders", "product"}})
	for _, p := range []string{fmt.Sprintf("/api/v1/orders/%d", orderID), fmt.Sprintf("/api/v1/orders/%d/shipments", orderID)} {
		if r := s.do("GET", p, otherKey, nil); r.status != 404 {
			t.Fatalf("another seller's key reads %s: %d %s", p, r.status, r.raw)
		}
	}
	if r := s.do("GET", "/api/v1/orders", otherKey, nil); !strings.Contains(string(r.raw), `"total":0`) {
		t.Fatalf("another seller's key lists orders: %s", r.raw)
	}

	// A key is not a session, a session is not a key, and a cookie is nothing here.
	if r := s.do("GET", "/api/seller/stores", secret, nil); r.status != 401 {
		t.Fatalf("key on the screens' API: %d", r.status)
	}
	if r := s.do("GET", "/api/v1/stores", seller, nil); r.status != 401 || r.body.Message != apikeys.MsgBadKey {
		t.Fatalf("session on /api/v1: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/v1/stores", "", nil, "Cookie", "auth._token.local=Bearer%20"+seller); r.status != 401 {
		t.Fatalf("session cookie on /api/v1: %d", r.status)
	}

	// Audited: every use, with its status, and last_used_at moved.
	var uses, refused int
	if err := s.app.DB.Get(&uses, `SELECT count(*) FROM audit_events WHERE action = 'api_key.use' AND (detail->>'key_id')::bigint = $1`, keyID); err != nil || uses != 8 {
		t.Fatalf("uses audited: %d %v", uses, err)
	}
	if err := s.app.DB.Get(&refused, `SELECT count(*) FROM audit_events WHERE action = 'api_key.use' AND (detail->>'key_id')::bigint = $1 AND detail->>'status' = '403'`, keyID); err != nil || refused != 1 {
		t.Fatalf("refused use audited: %d %v", refused, err)
	}
	r = s.do("GET", "/api/settings/api-keys", seller, nil)
	if !strings.Contains(string(r.raw), `"last_used_at":"`) {
		t.Fatalf("last used not shown: %s", r.raw)
	}

	// Revoked: refused on the next call; another seller cannot revoke it.
	if r := s.do("DELETE", fmt.Sprintf("/api/settings/api-keys/%d", keyID), other, nil); r.status != 404 {
		t.Fatalf("another seller revokes: %d", r.status)
	}
	if r := s.do("DELETE", fmt.Sprintf("/api/settings/api-keys/%d", keyID), seller, nil); r.status != 200 || r.body.Message != apikeys.MsgRevoked {
		t.Fatalf("revoke: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/v1/stores", secret, nil); r.status != 401 || r.header.Get("WWW-Authenticate") == "" {
		t.Fatalf("revoked key: %d %s", r.status, r.raw)
	}
	// Expired: the same.
	if _, err := s.app.DB.Exec(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, orderKeyID); err != nil {
		t.Fatal(err)
	}
	if r := s.do("GET", "/api/v1/orders", orderKey, nil); r.status != 401 {
		t.Fatalf("expired key: %d %s", r.status, r.raw)
	}
	// Suspended account: its keys stop.
	if _, err := s.app.DB.Exec(`UPDATE users SET status = 'suspended' WHERE email = 'other@example.com'`); err != nil {
		t.Fatal(err)
	}
	if r := s.do("GET", "/api/v1/orders", otherKey, nil); r.status != 401 {
		t.Fatalf("suspended account's key: %d %s", r.status, r.raw)
	}
}

// TestAPIKeyLimit: an account holds at most apikeys.MaxActive working keys, even when created at once.
func TestAPIKeyLimit(t *testing.T) {
	s := newStack(t)
	seller := s.mint("seller@example.com", "own", "", false)
	codes := make(chan int, apikeys.MaxActive+5)
	for range apikeys.MaxActive + 5 {
		go func() {
			codes <- s.do("POST", "/api/settings/api-keys", seller, map[string]any{"name": "k", "scopes": []string{"store"}}).status
		}()
	}
	var ok, refused int
	for range apikeys.MaxActive + 5 {
		switch <-codes {
		case 200:
			ok++
		case 422:
			refused++
		}
	}
	if ok != apikeys.MaxActive || refused != 5 {
		t.Fatalf("%d created, %d refused; want %d and 5", ok, refused, apikeys.MaxActive)
	}
}

// TestAPIRateLimit: a key's budget is counted in Redis, so two bff processes share it; past it the
// answer is 429 with Retry-After, and the headers count down.
func TestAPIRateLimit(t *testing.T) {
	s := newStackWith(t, map[string]string{"PRESSROOM_API_RATE_LIMIT": "3", "PRESSROOM_API_RATE_WINDOW": "1h"})
	second, err := New(context.Background(), s.cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { second.Close() })
	srv2 := httptest.NewServer(second.Echo)
	t.Cleanup(srv2.Close)
	seller := s.mint("seller@example.com", "own", "", false)
	_, key := s.createKey(seller, map[string]any{"name": "Busy", "scopes": []string{"store"}})
	get := func(base string) *http.Response {
		req, _ := http.NewRequest("GET", base+"/api/v1/stores", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	for i, base := range []string{s.srv.URL, srv2.URL, s.srv.URL} {
		res := get(base)
		if res.StatusCode != 200 || res.Header.Get("RateLimit-Remaining") != strconv.Itoa(2-i) {
			t.Fatalf("call %d: %d remaining %q", i+1, res.StatusCode, res.Header.Get("RateLimit-Remaining"))
		}
	}
	res := get(srv2.URL)
	wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
	if res.StatusCode != 429 || wait < 1 || wait > 3600 || res.Header.Get("RateLimit-Remaining") != "0" {
		t.Fatalf("over the budget: %d Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
}

// TestOpenAPIMatchesRoutes: every /api/v1 route is in the OpenAPI document and every documented
// operation is a route; every route but the document itself refuses a caller without a key.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	s := newStack(t)
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Servers []struct{ URL string }               `json:"servers"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
	}
	r := s.do("GET", "/api/v1/openapi.json", "", nil)
	if err := json.Unmarshal(r.raw, &doc); err != nil || r.status != 200 || doc.OpenAPI != "3.1.0" || doc.Servers[0].URL != publicapi.Base {
		t.Fatalf("document: %d %v", r.status, err)
	}
	var documented []string
	for path, ops := range doc.Paths {
		echoPath := publicapi.Base + strings.NewReplacer("{", ":", "}", "").Replace(path)
		for method := range ops {
			documented = append(documented, strings.ToUpper(method)+" "+echoPath)
		}
	}
	var routed []string
	for _, rt := range s.app.Echo.Routes() {
		if !strings.HasPrefix(rt.Path, publicapi.Base+"/") || rt.Method == echo.RouteNotFound {
			continue
		}
		routed = append(routed, rt.Method+" "+rt.Path)
		if rt.Path == publicapi.Base+"/openapi.json" {
			continue
		}
		path := pathParam.ReplaceAllString(rt.Path, "1")
		if got := s.do(rt.Method, path, "", nil); got.status != 401 {
			t.Errorf("%s %s without a key: %d", rt.Method, rt.Path, got.status)
		}
	}
	sort.Strings(documented)
	sort.Strings(routed)
	if !slices.Equal(documented, routed) || len(routed) < 7 {
		t.Fatalf("documented %v\nrouted     %v", documented, routed)
	}
}

// TestAPICancelOrder: a key with the orders scope cancels an order through the state machine; a
// repeat with the same Idempotency-Key gets the first answer, a new request is refused by the
// state (409), another seller's key gets 404, and the order's history names the API key.
func TestAPICancelOrder(t *testing.T) {
	s := newStack(t)
	seller := s.mint("seller@example.com", "own", "", false)
	s.addUser("other@example.com", []string{"seller"}, []string{}, true, false)
	other := s.mint("other@example.com", "own", "", false)
	keyID, key := s.createKey(seller, map[string]any{"name": "Sync", "scopes": []string{"orders"}})
	_, storeKey := s.createKey(seller, map[string]any{"name": "Stores", "scopes": []string{"store"}})
	_, otherKey := s.createKey(other, map[string]any{"name": "Other", "scopes": []string{"orders"}})
	orderID, _ := s.buy("buyer@example.com", "Ada Buyer", 1)
	path := fmt.Sprintf("/api/v1/orders/%d/cancel", orderID)
	body := map[string]any{"note": "Customer changed their mind"}

	if r := s.do("POST", path, storeKey, body, "Idempotency-Key", "c-1"); r.status != 403 {
		t.Fatalf("cancel without the orders scope: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", path, otherKey, body, "Idempotency-Key", "c-1"); r.status != 404 {
		t.Fatalf("another seller's key cancels: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", path, key, map[string]any{"note": strings.Repeat("x", 1001)}); r.status != 422 || r.body.Errors[0].Field != "note" {
		t.Fatalf("long note: %d %s", r.status, r.raw)
	}
	first := s.do("POST", path, key, body, "Idempotency-Key", "c-1")
	if first.status != 200 || first.body.Data.(map[string]any)["status"] != "cancelled" {
		t.Fatalf("cancel: %d %s", first.status, first.raw)
	}
	again := s.do("POST", path, key, body, "Idempotency-Key", "c-1")
	if again.status != 200 || again.header.Get("Idempotent-Replayed") != "true" || string(again.raw) != string(first.raw) {
		t.Fatalf("repeat with the same key: %d %v %s", again.status, again.header, again.raw)
	}
	if r := s.do("POST", path, key, map[string]any{"note": "other"}, "Idempotency-Key", "c-1"); r.status != 422 {
		t.Fatalf("same key, another request: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", path, key, body); r.status != 409 || !strings.HasPrefix(r.body.Message, publicapi.MsgCancelRefused) {
		t.Fatalf("cancel a cancelled order: %d %s", r.status, r.raw)
	}
	// The same Idempotency-Key from the seller's own session is another key: it does not replay.
	if r := s.do("POST", fmt.Sprintf("/api/seller/orders/%d/actions/cancel", orderID), seller, body, "Idempotency-Key", "c-1"); r.status == 200 && r.header.Get("Idempotent-Replayed") == "true" {
		t.Fatalf("a session replayed the API key's answer: %s", r.raw)
	}
	var events int
	if err := s.app.DB.Get(&events, `SELECT count(*) FROM order_events WHERE order_id = $1 AND action = 'cancel' AND actor = $2`,
		orderID, "api_key:"+strconv.FormatInt(keyID, 10)); err != nil || events != 1 {
		t.Fatalf("order history: %d cancel events by the key, %v", events, err)
	}
}

// keyTrigger turns the API key trigger's notifications off or on for the whole database.
func (s *stack) keyTrigger(on bool) {
	s.t.Helper()
	verb := "DISABLE"
	if on {
		verb = "ENABLE"
	}
	s.app.DB.MustExec(`ALTER TABLE api_keys ` + verb + ` TRIGGER api_keys_changed`)
}

// revokeKey revokes a key by a plain statement, as another process or an operator would.
func (s *stack) revokeKey(id int64) {
	s.t.Helper()
	s.app.DB.MustExec(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, id)
}

// waitKeyCaching waits until s serves API keys from its cache: a key used once, then revoked with
// the notifications off, still answers. It fails after 10 s.
func (s *stack) waitKeyCaching(one *stack, seller string) {
	s.t.Helper()
	for i := 0; ; i++ {
		id, probe := one.createKey(seller, map[string]any{"name": "Probe", "scopes": []string{"store"}})
		s.do("GET", "/api/v1/stores", probe, nil)
		one.keyTrigger(false)
		one.revokeKey(id)
		one.keyTrigger(true)
		if s.do("GET", "/api/v1/stores", probe, nil).status == 200 {
			return
		}
		if i == 1000 {
			s.t.Fatal("the process never served a key from its cache")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestAPIKeyCacheFollowsChangesAcrossProcesses: keys are served from each process's cache while it
// follows the changes, and a key revoked (by the settings endpoint or a plain statement) or an
// account suspended stops on every process as soon as Postgres notifies it, at once on the process
// that revoked it; while the notifications are lost, keys are read from Postgres again.
func TestAPIKeyCacheFollowsChangesAcrossProcesses(t *testing.T) {
	one := newStackWith(t, map[string]string{"PRESSROOM_DATABASE_NOTIFY_PING": "200ms", "PRESSROOM_API_RATE_LIMIT": "0"})
	two := one.second()
	one.follow()
	two.follow()
	seller := one.mint("seller@example.com", "own", "", false)
	one.waitKeyCaching(one, seller)
	two.waitKeyCaching(one, seller)
	use := func(secret string) {
		t.Helper()
		for _, s := range []*stack{one, two} {
			if r := s.do("GET", "/api/v1/stores", secret, nil); r.status != 200 {
				t.Fatalf("live key: %d %s", r.status, r.raw)
			}
		}
	}

	// A key revoked by a plain statement stops on both processes.
	id, secret := one.createKey(seller, map[string]any{"name": "SQL revoked", "scopes": []string{"store"}})
	use(secret)
	one.revokeKey(id)
	one.eventually(401, "GET", "/api/v1/stores", secret, nil)
	two.eventually(401, "GET", "/api/v1/stores", secret, nil)

	// A key revoked through one process stops there with the very next request, and on the other.
	id, secret = one.createKey(seller, map[string]any{"name": "Screen revoked", "scopes": []string{"store"}})
	use(secret)
	if r := one.do("DELETE", fmt.Sprintf("/api/settings/api-keys/%d", id), seller, nil); r.status != 200 {
		t.Fatalf("revoke: %d %s", r.status, r.raw)
	}
	if r := one.do("GET", "/api/v1/stores", secret, nil); r.status != 401 {
		t.Fatalf("revoked key on the revoking process: %d %s", r.status, r.raw)
	}
	two.eventually(401, "GET", "/api/v1/stores", secret, nil)

	// A scope taken away by a plain statement is gone on both.
	id, secret = one.createKey(seller, map[string]any{"name": "Rescoped", "scopes": []string{"store", "orders"}})
	use(secret)
	one.app.DB.MustExec(`UPDATE api_keys SET scopes = '{orders}' WHERE id = $1`, id)
	one.eventually(403, "GET", "/api/v1/stores", secret, nil)
	two.eventually(403, "GET", "/api/v1/stores", secret, nil)

	// A suspension by a plain statement stops the account's keys on both, and lifting it restores them.
	_, secret = one.createKey(seller, map[string]any{"name": "Suspended", "scopes": []string{"store"}})
	use(secret)
	one.app.DB.MustExec(`UPDATE users SET status = 'suspended' WHERE email = 'seller@example.com'`)
	one.eventually(401, "GET", "/api/v1/stores", secret, nil)
	two.eventually(401, "GET", "/api/v1/stores", secret, nil)
	one.app.DB.MustExec(`UPDATE users SET status = 'verified' WHERE email = 'seller@example.com'`)
	use(secret)

	// With the listening connections gone, nothing is served from the cache: a revocation nobody
	// notifies still applies, as each request reads its key from Postgres.
	id, secret = one.createKey(seller, map[string]any{"name": "Unnoticed", "scopes": []string{"store"}})
	use(secret)
	one.app.DB.MustExec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'pressroom auth_changed'`)
	one.keyTrigger(false)
	one.revokeKey(id)
	one.keyTrigger(true)
	two.eventually(401, "GET", "/api/v1/stores", secret, nil)
	// and once listening again, the cache serves again.
	two.waitKeyCaching(one, seller)
}

// TestAPIKeyUsesAuditedInBatches: while the writer runs, every use of a key is still audited, with
// its status, but written in batches off the request path; what is queued when the writer stops is
// written then.
func TestAPIKeyUsesAuditedInBatches(t *testing.T) {
	s := newStackWith(t, map[string]string{"PRESSROOM_API_RATE_LIMIT": "0"})
	seller := s.mint("seller@example.com", "own", "", false)
	keyID, secret := s.createKey(seller, map[string]any{"name": "Busy", "scopes": []string{"store"}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.app.apiKeys.RecordUses(ctx) }()
	const n = 40
	for i := range n {
		path := "/api/v1/stores"
		if i%10 == 0 {
			path = "/api/v1/orders" // 403: no orders scope
		}
		s.do("GET", path, secret, nil)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var got struct {
		Uses    int `db:"uses"`
		Refused int `db:"refused"`
		Batches int `db:"batches"`
	}
	if err := s.app.DB.Get(&got, `SELECT count(*) AS uses, count(*) FILTER (WHERE detail->>'status' = '403') AS refused,
		count(DISTINCT xmin::text) AS batches FROM audit_events WHERE action = 'api_key.use' AND (detail->>'key_id')::bigint = $1`, keyID); err != nil {
		t.Fatal(err)
	}
	if got.Uses != n || got.Refused != n/10 || got.Batches >= n {
		t.Fatalf("uses audited %+v, want %d uses (%d refused) in fewer statements", got, n, n/10)
	}
	if r := s.do("GET", "/api/settings/api-keys", seller, nil); !strings.Contains(string(r.raw), `"last_used_at":"`) {
		t.Fatalf("last used not shown: %s", r.raw)
	}
}
