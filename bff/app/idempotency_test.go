package app

import (
	"strings"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/bff/idempotency"
)

// A double click or a retried create makes one campaign: every request with the same
// Idempotency-Key and body gets the first answer; the same key with another body is refused.
func TestIdempotentCreate(t *testing.T) {
	e := newEditor(t)
	body := obj{"name": "Once", "kind": "regular", "template_ids": []int64{e.templates["Poster"]}}
	count := func(name string) int {
		t.Helper()
		var n int
		if err := e.app.DB.Get(&n, `SELECT count(*) FROM campaigns WHERE name = $1`, name); err != nil {
			t.Fatal(err)
		}
		return n
	}

	const n = 20
	replies := make([]reply, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			replies[i] = e.do("POST", "/api/seller/campaigns", e.token, body, idempotency.Header, "click-1")
		})
	}
	wg.Wait()
	ids, replayed := map[int64]bool{}, 0
	for _, r := range replies {
		if r.status != 200 {
			t.Fatalf("concurrent create: %d %s", r.status, r.raw)
		}
		ids[idOf(r.body.Data)] = true
		if r.header.Get(idempotency.ReplayedHeader) == "true" {
			replayed++
		}
	}
	if got := count("Once"); got != 1 || len(ids) != 1 || replayed != n-1 {
		t.Fatalf("%d identical creates made %d campaigns, answered %d ids, %d replayed; want 1, 1, %d", n, got, len(ids), replayed, n-1)
	}

	other := obj{"name": "Other", "kind": "regular", "template_ids": []int64{e.templates["Poster"]}}
	r := e.do("POST", "/api/seller/campaigns", e.token, other, idempotency.Header, "click-1")
	if r.status != 422 || r.body.Message != idempotency.MsgMismatch {
		t.Fatalf("same key, other body: %d %s", r.status, r.raw)
	}
	if got := count("Other"); got != 0 {
		t.Fatalf("the refused request made %d campaigns", got)
	}

	// A request that failed keeps no key: its corrected retry runs.
	if r := e.do("POST", "/api/seller/campaigns", e.token, obj{"name": "", "kind": "regular"}, idempotency.Header, "click-2"); r.status != 422 {
		t.Fatalf("invalid create: %d %s", r.status, r.raw)
	}
	if r := e.do("POST", "/api/seller/campaigns", e.token, other, idempotency.Header, "click-2"); r.status != 200 || count("Other") != 1 {
		t.Fatalf("corrected retry: %d %s", r.status, r.raw)
	}

	// A new key is a new create; no key runs as before.
	for _, key := range []string{"click-3", ""} {
		if r := e.do("POST", "/api/seller/campaigns", e.token, body, idempotency.Header, key); r.status != 200 {
			t.Fatalf("create with key %q: %d %s", key, r.status, r.raw)
		}
	}
	if got := count("Once"); got != 3 {
		t.Fatalf("campaigns named Once = %d, want 3", got)
	}

	// A key is a short printable token.
	if r := e.do("POST", "/api/seller/campaigns", e.token, body, idempotency.Header, strings.Repeat("k", idempotency.MaxKeyLen+1)); r.status != 422 || r.body.Message != idempotency.MsgBadKey {
		t.Fatalf("overlong key: %d %s", r.status, r.raw)
	}
}
