package app

import (
	"context"
	"log/slog"
	"net"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/platform/env"
)

// burst sends n copies of one request at once and counts the answers by status.
func (s *stack) burst(n int, method, path, token string, body any) map[int]int {
	s.t.Helper()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		counts = map[int]int{}
		start  = make(chan struct{})
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := s.do(method, path, token, body)
			mu.Lock()
			counts[r.status]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return counts
}

// A parallel burst of wrong guesses gets no more evaluations than the limit allows one after another:
// the guess is counted before the password or code is checked.
func TestParallelGuessesGetNoMoreThanTheLimit(t *testing.T) {
	s := newStackWith(t, map[string]string{
		"PRESSROOM_LOGIN_MAX_FAILURES_PER_ACCOUNT": "5", "PRESSROOM_LOGIN_MAX_FAILURES_PER_CLIENT": "1000",
		// The five evaluated guesses queue for the hashing slots; a busy test machine must not turn them into 503s.
		"PRESSROOM_PASSWORD_HASH_WAIT": "2m",
	})
	secret, err := totp.Generate(totp.GenerateOpts{Issuer: "Pressroom", AccountName: "designer@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	s.app.DB.MustExec(`UPDATE users SET tfa_enable = true, tfa_secret = $1 WHERE email = 'designer@example.com'`, secret.Secret())
	owing := s.mint("designer@example.com", "own", "", false)
	admin := s.mint("admin@example.com", "own", "", false)
	tests := []struct {
		name, path, token string
		body              any
		wrong             int
	}{
		{name: "login", path: "/api/auth/seller/login", body: map[string]string{"email": "seller@example.com", "password": "wrong-password"}, wrong: 401},
		{name: "current password", path: "/api/auth/change-password", token: admin,
			body: map[string]string{"current_password": "wrong-password", "password": "another-pass", "password_confirmation": "another-pass"}, wrong: 422},
		{name: "two-factor code", path: "/api/auth/tfa/verify", token: owing, body: map[string]string{"code": "000000"}, wrong: 422},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.burst(30, "POST", tt.path, tt.token, tt.body)
			if got[tt.wrong] != 5 || got[429] != 25 {
				t.Fatalf("30 parallel wrong guesses: %v, want 5 evaluated (%d) and 25 refused (429)", got, tt.wrong)
			}
		})
	}
}

// Register, forgot-password and reset-password are counted per client address and in all before
// they hash, look up or send anything.
func TestAccountCallsAreThrottled(t *testing.T) {
	s := newStackWith(t, map[string]string{
		"PRESSROOM_ACCOUNT_CALLS_PER_CLIENT": "3", "PRESSROOM_ACCOUNT_CALLS_GLOBAL": "5", "PRESSROOM_TRUST_PROXY": "true",
	})
	calls := []struct {
		name, path string
		body       func(i int) any
	}{
		{name: "register", path: "/api/auth/register", body: func(i int) any {
			e := "new" + strconv.Itoa(i) + "@example.com"
			return map[string]string{"name": "New", "email": e, "password": "long-enough-1", "password_confirmation": "long-enough-1"}
		}},
		{name: "forgot", path: "/api/auth/forgot-password", body: func(i int) any {
			return map[string]string{"email": "someone" + strconv.Itoa(i) + "@example.com"}
		}},
		{name: "reset", path: "/api/auth/reset-password", body: func(i int) any {
			return map[string]string{"token": "bogus-" + strconv.Itoa(i), "password": "long-enough-1", "password_confirmation": "long-enough-1"}
		}},
	}
	for _, call := range calls {
		t.Run(call.name, func(t *testing.T) {
			from := func(ip string, i int) reply {
				return s.do("POST", call.path, "", call.body(i), "X-Forwarded-For", ip)
			}
			for i := range 3 {
				if r := from("198.51.100.1", i); r.status == 429 {
					t.Fatalf("call %d from one client: %d %s", i+1, r.status, r.raw)
				}
			}
			r := from("198.51.100.1", 3)
			if r.status != 429 || !strings.HasPrefix(r.body.Message, "Too many requests.") || r.header.Get("Retry-After") == "" {
				t.Fatalf("fourth call from one client: %d %s", r.status, r.raw)
			}
			for i := range 2 {
				if r := from("198.51.100."+strconv.Itoa(i+2), 10+i); r.status == 429 {
					t.Fatalf("call from another client under the global limit: %d %s", r.status, r.raw)
				}
			}
			if r := from("198.51.100.9", 20); r.status != 429 {
				t.Fatalf("sixth call in all, from a fresh client: %d %s", r.status, r.raw)
			}
		})
	}
}

// Login answers 503 with a clear message while the throttle's Redis cannot be reached.
func TestLoginWhileRedisIsDown(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	s := newStackWith(t, map[string]string{"PRESSROOM_REDIS_ADDR": closed})
	for range 3 {
		r := s.do("POST", "/api/auth/seller/login", "", map[string]string{"email": "seller@example.com", "password": seed.DemoPassword})
		if r.status != 503 || r.body.Message != auth.MsgSignInUnavailable {
			t.Fatalf("login without Redis: %d %s", r.status, r.raw)
		}
	}
}

func (s *stack) audited(action string) int {
	s.t.Helper()
	var n int
	if err := s.app.DB.Get(&n, `SELECT count(*) FROM audit_events WHERE action = $1`, action); err != nil {
		s.t.Fatal(err)
	}
	return n
}

// Impersonation is short, re-checked against the admin on every request, refused the sensitive
// changes, and audited from start to stop.
func TestImpersonationIsShortRecheckedAndRefusedSensitiveChanges(t *testing.T) {
	s := newStack(t)
	s.app.DB.MustExec(`UPDATE users SET tags = tags || '{email marketing}' WHERE email = 'seller@example.com'`)
	admin := s.mint("admin@example.com", "own", "", false)
	start := func() string {
		t.Helper()
		r := s.do("POST", "/api/admin/login-as-seller", admin, map[string]string{"email": "seller@example.com"})
		if r.status != 200 || r.body.Data.(map[string]any)["expires_in"].(float64) != 3600 {
			t.Fatalf("impersonation: %d %s", r.status, r.raw)
		}
		return accessToken(t, r)
	}
	token := start()
	var hours float64
	s.app.DB.Get(&hours, `SELECT extract(epoch FROM expires_at - created_at) / 3600 FROM sessions WHERE kind = 'impersonation'`)
	if hours < 0.99 || hours > 1.01 {
		t.Fatalf("impersonation session lasts %.2f hours, want 1", hours)
	}
	member := strconv.FormatInt(s.userID("team@example.com"), 10)
	var storeID int64
	s.app.DB.Get(&storeID, `SELECT id FROM stores WHERE owner_id = $1`, s.userID("seller@example.com"))
	store := strconv.FormatInt(storeID, 10)
	refused := []struct{ method, path string }{
		{"PUT", "/api/team/members/" + member},
		{"DELETE", "/api/team/members/" + member},
		{"POST", "/api/team/invitations"},
		{"PUT", "/api/seller/store/" + store + "/email-marketing-klaviyo"},
		{"POST", "/api/seller/store/" + store + "/email-marketing-klaviyo/sync-profiles"},
		{"POST", "/api/seller/email-marketing/campaigns/1/send"},
		{"POST", "/api/seller/email-marketing/campaigns/1/test"},
		{"POST", "/api/auth/tfa/setup"},
	}
	for _, rt := range refused {
		if r := s.do(rt.method, rt.path, token, map[string]any{"permissions": []string{"get_orders"}}); r.status != 403 || r.body.Message != auth.MsgImpersonating {
			t.Fatalf("%s %s while impersonating: %d %s", rt.method, rt.path, r.status, r.raw)
		}
	}
	if n := s.audited("impersonation.refused"); n != len(refused) {
		t.Fatalf("impersonation.refused audited %d times, want %d", n, len(refused))
	}
	if r := s.do("GET", "/api/team/members", token, nil); r.status != 200 {
		t.Fatalf("reading the team while impersonating: %d %s", r.status, r.raw)
	}

	if r := s.do("POST", "/api/auth/logout", token, nil); r.status != 200 {
		t.Fatalf("stop: %d %s", r.status, r.raw)
	}
	if s.audited("impersonation.start") != 1 || s.audited("impersonation.stop") != 1 {
		t.Fatalf("start and stop audited %d and %d times", s.audited("impersonation.start"), s.audited("impersonation.stop"))
	}

	// An admin who is no longer one loses the impersonation at once; so does a suspended admin.
	token = start()
	s.app.DB.MustExec(`UPDATE users SET roles = '{designer}' WHERE email = 'admin@example.com'`)
	if r := s.do("GET", "/api/me", token, nil); r.status != 401 {
		t.Fatalf("impersonation of a demoted admin: %d %s", r.status, r.raw)
	}
	s.app.DB.MustExec(`UPDATE users SET roles = '{admin}' WHERE email = 'admin@example.com'`)
	token = start()
	s.app.DB.MustExec(`UPDATE users SET status = 'suspended' WHERE email = 'admin@example.com'`)
	if r := s.do("GET", "/api/me", token, nil); r.status != 403 || r.body.Message != auth.MsgSuspended {
		t.Fatalf("impersonation of a suspended admin: %d %s", r.status, r.raw)
	}
}

// A suspended account cannot sign in, and its open sessions are refused on every request.
func TestSuspendedAccount(t *testing.T) {
	s := newStack(t)
	token := s.mint("seller@example.com", "own", "", false)
	s.app.DB.MustExec(`UPDATE users SET status = 'suspended' WHERE email = 'seller@example.com'`)
	for _, path := range []string{"/api/me", "/api/seller/orders"} {
		if r := s.do("GET", path, token, nil); r.status != 403 || r.body.Message != auth.MsgSuspended {
			t.Fatalf("GET %s of a suspended account: %d %s", path, r.status, r.raw)
		}
	}
	login := map[string]string{"email": "seller@example.com", "password": seed.DemoPassword}
	if r := s.do("POST", "/api/auth/seller/login", "", login); r.status != 403 || r.body.Message != auth.MsgSuspended {
		t.Fatalf("login of a suspended account: %d %s", r.status, r.raw)
	}
	login["password"] = "wrong-password"
	if r := s.do("POST", "/api/auth/seller/login", "", login); r.status != 401 {
		t.Fatalf("a wrong password does not learn the status: %d %s", r.status, r.raw)
	}
	// A team member working in a suspended seller's account is refused too.
	switched := s.mint("seller@example.com", "switched", "team@example.com", true)
	if r := s.do("GET", "/api/me", switched, nil); r.status != 403 {
		t.Fatalf("switched into a suspended account: %d %s", r.status, r.raw)
	}
}

// A session moves to another dashboard host through a one-time code exchanged by POST, never a token
// in an address.
func TestHandoffCode(t *testing.T) {
	s := newStack(t)
	seller := s.mint("seller@example.com", "own", "", false)
	r := s.do("POST", "/api/auth/handoff", seller, nil)
	if r.status != 200 {
		t.Fatalf("handoff: %d %s", r.status, r.raw)
	}
	code := r.body.Data.(map[string]any)["code"].(string)
	var stored int
	s.app.DB.Get(&stored, `SELECT count(*) FROM session_handoffs WHERE code_hash = $1::bytea`, []byte(code))
	if stored != 0 || len(code) < 43 {
		t.Fatal("handoff codes must be random and stored hashed")
	}
	token := accessToken(t, s.do("POST", "/api/auth/handoff/exchange", "", map[string]string{"code": code}))
	if s.me(token)["email"] != "seller@example.com" {
		t.Fatal("the exchanged session is not the seller's")
	}
	if r := s.do("POST", "/api/auth/handoff/exchange", "", map[string]string{"code": code}); r.status != 422 || r.body.Message != auth.MsgBadHandoff {
		t.Fatalf("a code works once: %d %s", r.status, r.raw)
	}
	r = s.do("POST", "/api/auth/handoff", seller, nil)
	late := r.body.Data.(map[string]any)["code"].(string)
	s.app.DB.MustExec(`UPDATE session_handoffs SET expires_at = now() - interval '1 second'`)
	if r := s.do("POST", "/api/auth/handoff/exchange", "", map[string]string{"code": late}); r.status != 422 {
		t.Fatalf("an expired code: %d %s", r.status, r.raw)
	}
	impersonating := s.mint("seller@example.com", "impersonation", "admin@example.com", false)
	if r := s.do("POST", "/api/auth/handoff", impersonating, nil); r.status != 403 {
		t.Fatalf("an impersonating admin hands the seller's session on: %d %s", r.status, r.raw)
	}
}

// Two-factor changes need the current password and are told to the account's address.
func TestTwoFactorChangesNeedThePasswordAndAreTold(t *testing.T) {
	s := newStack(t)
	token := s.mint("seller@example.com", "own", "", false)
	pw := seed.DemoPassword
	r := s.do("POST", "/api/auth/tfa/setup", token, map[string]string{"current_password": pw})
	if r.status != 200 {
		t.Fatalf("setup: %d %s", r.status, r.raw)
	}
	secret := r.body.Data.(map[string]any)["secret"].(string)
	now := time.Now()
	if r := s.do("POST", "/api/auth/tfa/enable", token, map[string]string{"code": code(t, secret, now), "current_password": pw}); r.status != 200 {
		t.Fatalf("enable: %d %s", r.status, r.raw)
	}
	notice := func() string {
		var subject string
		s.app.DB.Get(&subject, `SELECT subject FROM mail_outbox WHERE to_address = 'seller@example.com' ORDER BY id DESC LIMIT 1`)
		return subject
	}
	if got := notice(); got != "Two-factor authentication was turned on" {
		t.Fatalf("notice after enabling: %q", got)
	}
	next := code(t, secret, now.Add(30*time.Second))
	for _, body := range []map[string]string{{"code": next}, {"code": next, "current_password": "wrong-password"}} {
		if r := s.do("POST", "/api/auth/tfa/disable", token, body); r.status != 422 || r.body.Errors[0].Field != "current_password" {
			t.Fatalf("disable with %v: %d %s", body, r.status, r.raw)
		}
	}
	if r := s.do("POST", "/api/auth/tfa/disable", token, map[string]string{"code": next, "current_password": pw}); r.status != 200 {
		t.Fatalf("disable: %d %s", r.status, r.raw)
	}
	if got := notice(); got != "Two-factor authentication was turned off" {
		t.Fatalf("notice after disabling: %q", got)
	}
}

// The admin's view of the local outbox hides the tokens of links; the stored mail keeps them.
func TestMailOutboxHidesLinkTokens(t *testing.T) {
	for _, show := range []bool{false, true} {
		t.Run("show links "+strconv.FormatBool(show), func(t *testing.T) {
			s := newStackWith(t, map[string]string{"PRESSROOM_MAIL_OUTBOX_SHOW_LINKS": strconv.FormatBool(show)})
			s.do("POST", "/api/auth/forgot-password", "", map[string]string{"email": "seller@example.com"})
			_, _, token := s.lastMail("seller@example.com")
			r := s.do("GET", "/api/admin/system/mail?q=seller", s.mint("admin@example.com", "own", "", false), nil)
			shown := strings.Contains(string(r.raw), token)
			if r.status != 200 || shown != show || strings.Contains(string(r.raw), "token=[hidden]") == show {
				t.Fatalf("outbox (token shown %v): %d %s", shown, r.status, r.raw)
			}
		})
	}
}

// A production start without an SMTP server is refused unless the local outbox is allowed.
func TestProductionNeedsSMTP(t *testing.T) {
	base := map[string]string{
		"PRESSROOM_ENV": "production", "PRESSROOM_DATABASE_URL": "postgres://x/y",
		"PRESSROOM_EMAIL_SECRET_KEY": strings.Repeat("k", 40),
	}
	check := func(extra map[string]string) error {
		vars := map[string]string{}
		for k, v := range base {
			vars[k] = v
		}
		for k, v := range extra {
			vars[k] = v
		}
		cfg, err := LoadConfig(env.Map(vars))
		if err != nil {
			return err
		}
		return cfg.Validate()
	}
	if err := check(nil); err == nil || !strings.Contains(err.Error(), "PRESSROOM_SMTP_HOST") {
		t.Fatalf("production without SMTP: %v", err)
	}
	for _, extra := range []map[string]string{{"PRESSROOM_MAIL_ALLOW_OUTBOX": "true"}, {"PRESSROOM_SMTP_HOST": "smtp.example.com"}} {
		if err := check(extra); err != nil && strings.Contains(err.Error(), "SMTP") {
			t.Fatalf("production with %v: %v", extra, err)
		}
	}
	if err := check(map[string]string{"PRESSROOM_SMTP_HOST": "smtp.example.com", "PRESSROOM_MAIL_OUTBOX_SHOW_LINKS": "true"}); err == nil ||
		!strings.Contains(err.Error(), "PRESSROOM_MAIL_OUTBOX_SHOW_LINKS") {
		t.Fatalf("production showing outbox links: %v", err)
	}
	// Production must say where browsers reach the dashboard, or e-mailed links point at the listen address.
	if err := check(map[string]string{"PRESSROOM_SMTP_HOST": "smtp.example.com"}); err == nil || !strings.Contains(err.Error(), "PRESSROOM_PUBLIC_URL is required in production") {
		t.Fatalf("production without PRESSROOM_PUBLIC_URL: %v", err)
	}
}

// second is another bff process on the stack's database and Redis, with its own caches.
func (s *stack) second() *stack {
	s.t.Helper()
	a, err := New(context.Background(), s.cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { a.Close() })
	srv := httptest.NewServer(a.Echo)
	s.t.Cleanup(srv.Close)
	return &stack{t: s.t, app: a, srv: srv, cfg: s.cfg}
}

// Callers are cached per process, yet a revoked token, a removed permission, a suspension and a new
// balance apply at once on every process.
func TestCachedCallersFollowChangesAcrossProcesses(t *testing.T) {
	one := newStack(t)
	two := one.second()
	seller := one.mint("seller@example.com", "own", "", false)
	switched := one.mint("seller@example.com", "switched", "team@example.com", true)
	warm := func() {
		t.Helper()
		for _, s := range []*stack{one, two} {
			for range 2 {
				if r := s.do("GET", "/api/seller/orders", switched, nil); r.status != 200 {
					t.Fatalf("orders with get_orders: %d %s", r.status, r.raw)
				}
				s.me(seller)
			}
		}
	}
	warm()
	// A permission removed through one process is gone on the other.
	member := strconv.FormatInt(one.userID("team@example.com"), 10)
	if r := one.do("PUT", "/api/team/members/"+member, seller, map[string]any{"permissions": []string{"get_campaigns"}}); r.status != 200 {
		t.Fatalf("remove get_orders: %d %s", r.status, r.raw)
	}
	if r := two.do("GET", "/api/seller/orders", switched, nil); r.status != 403 {
		t.Fatalf("orders on the other process after losing get_orders: %d %s", r.status, r.raw)
	}
	// A balance the ledger moves through one process shows on the next /me of the other.
	tx := one.app.DB.MustBeginTx(context.Background(), nil)
	if _, err := ledger.TopUp(context.Background(), tx, one.userID("seller@example.com"), money.Money{Amount: 424200, Currency: money.USD}, "pi_cache"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := two.me(seller)["balance"]; got != float64(4242) {
		t.Fatalf("balance on the other process: %v", got)
	}
	// A role taken away applies at once.
	one.app.DB.MustExec(`UPDATE users SET status = 'suspended' WHERE email = 'seller@example.com'`)
	if r := two.do("GET", "/api/me", seller, nil); r.status != 403 {
		t.Fatalf("suspended on the other process: %d %s", r.status, r.raw)
	}
	one.app.DB.MustExec(`UPDATE users SET status = 'verified' WHERE email = 'seller@example.com'`)
	// Logout on one process ends the token on the other.
	two.me(seller)
	if r := one.do("POST", "/api/auth/logout", seller, nil); r.status != 200 {
		t.Fatalf("logout: %d %s", r.status, r.raw)
	}
	if r := two.do("GET", "/api/me", seller, nil); r.status != 401 {
		t.Fatalf("revoked token on the other process: %d %s", r.status, r.raw)
	}
}
