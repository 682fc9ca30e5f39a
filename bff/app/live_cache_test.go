package app

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"
)

// follow starts the process's following of the changes of sessions, users, API keys and campaign lists, as
// Run does.
func (s *stack) follow() {
	s.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { s.app.Auth.FollowChanges(ctx, s.cfg.Database, s.app.apiKeys.Changes()) })
	wg.Go(func() { s.app.campaigns.FollowChanges(ctx, s.cfg.Database) })
	s.t.Cleanup(func() { cancel(); wg.Wait() })
}

// notifying turns the session triggers' notifications off or on for the whole database.
func (s *stack) notifying(on bool) {
	s.t.Helper()
	verb := "DISABLE"
	if on {
		verb = "ENABLE"
	}
	s.app.DB.MustExec(`ALTER TABLE sessions ` + verb + ` TRIGGER sessions_changed`)
}

// revoke revokes a token's session by a plain statement, as another process or an operator would.
func (s *stack) revoke(token string) {
	s.t.Helper()
	s.app.DB.MustExec(`UPDATE sessions SET revoked_at = now() WHERE token_hash = sha256($1::bytea)`, token)
}

// waitCaching waits until s serves sessions from its cache: a session read once, then revoked with
// the notifications off, still answers. It fails after 10 s.
func (s *stack) waitCaching(one *stack) {
	s.t.Helper()
	for i := 0; ; i++ {
		probe := one.mint("seller@example.com", "own", "", false)
		s.do("GET", "/api/me", probe, nil)
		s.do("GET", "/api/me", probe, nil)
		one.notifying(false)
		one.revoke(probe)
		one.notifying(true)
		if s.do("GET", "/api/me", probe, nil).status == 200 {
			return
		}
		if i == 1000 {
			s.t.Fatal("the process never served a session from its cache")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// eventually asks until the answer's status is want, failing after 10 s: another process learns of
// a change when its notification arrives, which follows the change's commit.
func (s *stack) eventually(want int, method, path, token string, body any) {
	s.t.Helper()
	s.eventuallyThat(method, path, token, body, "status "+strconv.Itoa(want), func(r reply) bool { return r.status == want })
}

// eventuallyThat asks until ok holds of the answer, failing after 10 s.
func (s *stack) eventuallyThat(method, path, token string, body any, want string, ok func(reply) bool) {
	s.t.Helper()
	for i := 0; ; i++ {
		r := s.do(method, path, token, body)
		if ok(r) {
			return
		}
		if i == 1000 {
			s.t.Fatalf("%s %s: %d %s, want %s", method, path, r.status, r.raw, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Sessions are served from each process's cache while it follows the changes, and a revoked token,
// a logout, a removed permission and a suspension still apply on every process as soon as Postgres
// notifies them; while the notifications are lost, sessions are read from Postgres again.
func TestSessionCacheFollowsChangesAcrossProcesses(t *testing.T) {
	one := newStackWith(t, map[string]string{"PRESSROOM_DATABASE_NOTIFY_PING": "200ms"})
	two := one.second()
	one.follow()
	two.follow()
	one.waitCaching(one)
	two.waitCaching(one)

	seller := one.mint("seller@example.com", "own", "", false)
	switched := one.mint("seller@example.com", "switched", "team@example.com", true)
	for _, s := range []*stack{one, two} {
		s.me(seller)
		if r := s.do("GET", "/api/seller/orders", switched, nil); r.status != 200 {
			t.Fatalf("orders with get_orders: %d %s", r.status, r.raw)
		}
	}

	// A token revoked by a plain statement stops working on both processes.
	revoked := one.mint("seller@example.com", "own", "", false)
	one.me(revoked)
	two.me(revoked)
	one.revoke(revoked)
	one.eventually(401, "GET", "/api/me", revoked, nil)
	two.eventually(401, "GET", "/api/me", revoked, nil)

	// A permission removed through one process is gone on both.
	member := strconv.FormatInt(one.userID("team@example.com"), 10)
	if r := one.do("PUT", "/api/team/members/"+member, seller, map[string]any{"permissions": []string{"get_campaigns"}}); r.status != 200 {
		t.Fatalf("remove get_orders: %d %s", r.status, r.raw)
	}
	one.eventually(403, "GET", "/api/seller/orders", switched, nil)
	two.eventually(403, "GET", "/api/seller/orders", switched, nil)

	// A suspension by a plain statement applies on both.
	one.app.DB.MustExec(`UPDATE users SET status = 'suspended' WHERE email = 'seller@example.com'`)
	one.eventually(403, "GET", "/api/me", seller, nil)
	two.eventually(403, "GET", "/api/me", seller, nil)
	one.app.DB.MustExec(`UPDATE users SET status = 'verified' WHERE email = 'seller@example.com'`)
	one.eventually(200, "GET", "/api/me", seller, nil)
	two.eventually(200, "GET", "/api/me", seller, nil)

	// A logout ends the token on its own process with the very next request, and on the other.
	if r := one.do("POST", "/api/auth/logout", seller, nil); r.status != 200 {
		t.Fatalf("logout: %d %s", r.status, r.raw)
	}
	if r := one.do("GET", "/api/me", seller, nil); r.status != 401 {
		t.Fatalf("token after logout on the same process: %d %s", r.status, r.raw)
	}
	two.eventually(401, "GET", "/api/me", seller, nil)

	// With the listening connections gone, nothing is served from the cache: a revocation nobody
	// notifies still applies, as each request reads its session from Postgres.
	unnoticed := one.mint("seller@example.com", "own", "", false)
	two.me(unnoticed)
	one.app.DB.MustExec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'pressroom auth_changed'`)
	one.notifying(false)
	one.revoke(unnoticed)
	one.notifying(true)
	two.eventually(401, "GET", "/api/me", unnoticed, nil)
	// and once listening again, the cache serves again.
	two.waitCaching(one)
}

// listShows says whether the campaign list answers 200 holding text.
func listShows(text string) func(reply) bool {
	return func(r reply) bool { return r.status == 200 && bytes.Contains(r.raw, []byte(text)) }
}

// The pages of the campaign list are served from each process's cache while it follows the
// changes, and a change to a campaign or its products, by any process or statement, shows on every
// process as soon as Postgres notifies it; on the process that made it, at once.
func TestCampaignListCacheFollowsChangesAcrossProcesses(t *testing.T) {
	one := newStackWith(t, map[string]string{"PRESSROOM_DATABASE_NOTIFY_PING": "200ms"})
	two := one.second()
	one.follow()
	two.follow()
	seller := one.mint("seller@example.com", "own", "", false)
	sellerID := one.userID("seller@example.com")
	const list = "/api/seller/campaigns?per_page=100"
	var probe int64
	one.app.DB.QueryRow(`INSERT INTO campaigns (user_id, name, kind) VALUES ($1, 'Probe 0', 'regular') RETURNING id`, sellerID).Scan(&probe)

	// Each process serves the list from its cache: a page read once, then changed with the
	// notifications off, still shows what it was.
	n := 0 // the probe is named "Probe n"
	for _, s := range []*stack{one, two} {
		for i := 1; ; i++ {
			was := fmt.Sprintf(`"Probe %d"`, n)
			s.eventuallyThat("GET", list, seller, nil, "the probe", listShows(was))
			s.do("GET", list, seller, nil)
			n++
			one.app.DB.MustExec(`ALTER TABLE campaigns DISABLE TRIGGER campaigns_list_changed`)
			one.app.DB.MustExec(`UPDATE campaigns SET name = $2 WHERE id = $1`, probe, fmt.Sprintf("Probe %d", n))
			one.app.DB.MustExec(`ALTER TABLE campaigns ENABLE TRIGGER campaigns_list_changed`)
			if listShows(was)(s.do("GET", list, seller, nil)) {
				// Notify the rename, for the next process.
				one.app.DB.MustExec(`UPDATE campaigns SET name = name WHERE id = $1`, probe)
				break
			}
			if i == 1000 {
				t.Fatal("the campaign list was never served from the cache")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	// A rename by a plain statement shows on both.
	one.app.DB.MustExec(`UPDATE campaigns SET name = 'Renamed by SQL' WHERE id = $1`, probe)
	one.eventuallyThat("GET", list, seller, nil, "the new name", listShows(`"Renamed by SQL"`))
	two.eventuallyThat("GET", list, seller, nil, "the new name", listShows(`"Renamed by SQL"`))

	// A campaign created through one process is on its next page at once, and on the other's.
	var template int64
	one.app.DB.Get(&template, `SELECT min(id) FROM product_templates`)
	if r := one.do("POST", "/api/seller/campaigns", seller, map[string]any{"name": "Made through the API", "template_ids": []int64{template}}); r.status != 200 {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	if r := one.do("GET", list, seller, nil); !listShows(`"Made through the API"`)(r) {
		t.Fatalf("the list of the process that made the campaign: %d %s", r.status, r.raw)
	}
	two.eventuallyThat("GET", list, seller, nil, "the new campaign", listShows(`"Made through the API"`))

	// A product removed by a plain statement changes the campaign's count on both.
	one.app.DB.MustExec(`DELETE FROM campaign_products WHERE campaign_id = (SELECT id FROM campaigns WHERE name = 'Made through the API')`)
	for _, s := range []*stack{one, two} {
		s.eventuallyThat("GET", list, seller, nil, "no products", func(r reply) bool {
			return r.status == 200 && productCount(r, "Made through the API") == 0
		})
	}
}

// productCount is the product_count of the campaign named name on a list page, -1 without it.
func productCount(r reply, name string) int {
	page, _ := r.body.Data.([]any)
	for _, c := range page {
		if c, ok := c.(map[string]any); ok && c["name"] == name {
			n, _ := c["product_count"].(float64)
			return int(n)
		}
	}
	return -1
}
