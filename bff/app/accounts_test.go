package app

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/seed"
)

var linkToken = regexp.MustCompile(`\?token=([A-Za-z0-9_-]+)`)

// lastMail returns the newest outbox message to addr and the token of the link it carries.
func (s *stack) lastMail(addr string) (subject, body, token string) {
	s.t.Helper()
	var m struct {
		Subject string `db:"subject"`
		Body    string `db:"body"`
	}
	if err := s.app.DB.Get(&m, `SELECT subject, body FROM mail_outbox WHERE to_address = $1 ORDER BY id DESC LIMIT 1`, addr); err != nil {
		s.t.Fatalf("no mail to %s: %v", addr, err)
	}
	match := linkToken.FindStringSubmatch(m.Body)
	if match == nil {
		s.t.Fatalf("mail to %s has no link: %s", addr, m.Body)
	}
	return m.Subject, m.Body, match[1]
}

func (s *stack) me(token string) map[string]any {
	s.t.Helper()
	r := s.do("GET", "/api/me", token, nil)
	if r.status != 200 {
		s.t.Fatalf("me: %d %s", r.status, r.raw)
	}
	return r.body.Data.(map[string]any)
}

func accessToken(t *testing.T, r reply) string {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("want a token: %d %s", r.status, r.raw)
	}
	return r.body.Data.(map[string]any)["access_token"].(string)
}

func TestRegisterAndVerifyEmail(t *testing.T) {
	s := newStack(t)
	body := map[string]string{"name": "Nia New", "email": "nia@example.com", "password": "long-enough-1", "password_confirmation": "long-enough-1"}
	token := accessToken(t, s.do("POST", "/api/auth/register", "", body))
	if r := s.do("POST", "/api/auth/register", "", body); r.status != 422 || r.body.Errors[0].Field != "email" || r.body.Message != auth.MsgEmailTaken {
		t.Fatalf("second registration: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/auth/register", "", map[string]string{"name": "x", "email": "x@example.com", "password": "short", "password_confirmation": "short"}); r.status != 422 || r.body.Errors[0].Field != "password" {
		t.Fatalf("short password: %d %s", r.status, r.raw)
	}

	me := s.me(token)
	if me["email_verified_at"] != nil || me["roles"].([]any)[0] != "seller" {
		t.Fatalf("new account: %v", me)
	}
	// Created after the cut-over and unverified: everything but the pending calls is refused.
	if r := s.do("GET", "/api/seller/orders", token, nil); r.status != 403 || r.body.Message != auth.MsgVerifyRequired {
		t.Fatalf("orders before verifying: %d %s", r.status, r.raw)
	}

	subject, mailBody, link := s.lastMail("nia@example.com")
	if subject != "Verify your email address" || !strings.Contains(mailBody, "/auth/verify-email?token=") {
		t.Fatalf("verification mail: %q %q", subject, mailBody)
	}
	var stored int
	s.app.DB.Get(&stored, `SELECT count(*) FROM email_tokens WHERE token_hash = $1::bytea`, []byte(link))
	if stored != 0 {
		t.Fatal("e-mail tokens must be stored hashed")
	}
	if r := s.do("POST", "/api/auth/verify-email", "", map[string]string{"token": link}); r.status != 200 || r.body.Message != auth.MsgVerified {
		t.Fatalf("verify: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/auth/verify-email", "", map[string]string{"token": link}); r.status != 422 {
		t.Fatalf("a link works once: %d %s", r.status, r.raw)
	}
	if s.me(token)["email_verified_at"] == nil {
		t.Fatal("still unverified")
	}
	if r := s.do("GET", "/api/seller/orders", token, nil); r.status != 200 {
		t.Fatalf("orders after verifying: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/auth/seller/login", "", map[string]string{"email": "nia@example.com", "password": "long-enough-1"}); r.status != 200 {
		t.Fatalf("sign in: %d %s", r.status, r.raw)
	}
}

func TestForgotAndResetPassword(t *testing.T) {
	s := newStack(t)
	old := s.mint("seller@example.com", "own", "", false)
	unknown := s.do("POST", "/api/auth/forgot-password", "", map[string]string{"email": "ghost@example.com"})
	known := s.do("POST", "/api/auth/forgot-password", "", map[string]string{"email": "seller@example.com"})
	if unknown.status != 200 || known.status != 200 || unknown.body.Message != known.body.Message {
		t.Fatalf("forgot answers must not tell accounts apart: %s / %s", unknown.raw, known.raw)
	}
	_, _, link := s.lastMail("seller@example.com")
	reset := map[string]string{"token": link, "password": "brand-new-pass", "password_confirmation": "brand-new-pass"}
	if r := s.do("POST", "/api/auth/reset-password", "", map[string]string{"token": link, "password": "brand-new-pass", "password_confirmation": "other"}); r.status != 422 || r.body.Errors[0].Field != "password_confirmation" {
		t.Fatalf("mismatched confirmation: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/auth/reset-password", "", reset); r.status != 200 || r.body.Message != auth.MsgPasswordReset {
		t.Fatalf("reset: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/auth/reset-password", "", reset); r.status != 422 || r.body.Message != auth.MsgBadResetLink {
		t.Fatalf("a reset link works once: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/me", old, nil); r.status != 401 {
		t.Fatalf("a reset revokes the old sessions: %d", r.status)
	}
	if r := s.do("POST", "/api/auth/seller/login", "", map[string]string{"email": "seller@example.com", "password": seed.DemoPassword}); r.status != 401 {
		t.Fatalf("old password: %d", r.status)
	}
	if r := s.do("POST", "/api/auth/seller/login", "", map[string]string{"email": "seller@example.com", "password": "brand-new-pass"}); r.status != 200 {
		t.Fatalf("new password: %d %s", r.status, r.raw)
	}

	// An expired link is refused.
	s.do("POST", "/api/auth/forgot-password", "", map[string]string{"email": "admin@example.com"})
	_, _, link = s.lastMail("admin@example.com")
	s.app.DB.MustExec(`UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`)
	reset["token"] = link
	if r := s.do("POST", "/api/auth/reset-password", "", reset); r.status != 422 {
		t.Fatalf("expired link: %d %s", r.status, r.raw)
	}
	// Asking again and again is throttled per address.
	var last reply
	for range s.cfg.Auth.MaxFailuresPerAccount + 1 {
		last = s.do("POST", "/api/auth/forgot-password", "", map[string]string{"email": "designer@example.com"})
	}
	if last.status != 429 || last.header.Get("Retry-After") == "" {
		t.Fatalf("forgot-password flood: %d %s", last.status, last.raw)
	}
}

func code(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTwoFactor(t *testing.T) {
	s := newStack(t)
	first := s.mint("seller@example.com", "own", "", false)
	if r := s.do("POST", "/api/auth/tfa/setup", first, nil); r.status != 422 || r.body.Errors[0].Field != "current_password" {
		t.Fatalf("setup without the password: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/auth/tfa/setup", first, map[string]string{"current_password": "wrong-one"}); r.status != 422 || r.body.Message != auth.MsgWrongPassword {
		t.Fatalf("setup with a wrong password: %d %s", r.status, r.raw)
	}
	pw := seed.DemoPassword
	r := s.do("POST", "/api/auth/tfa/setup", first, map[string]string{"current_password": pw})
	if r.status != 200 {
		t.Fatalf("setup: %d %s", r.status, r.raw)
	}
	setup := r.body.Data.(map[string]any)
	secret := setup["secret"].(string)
	if !strings.HasPrefix(setup["qr_code"].(string), "data:image/png;base64,") || !strings.HasPrefix(setup["otpauth_url"].(string), "otpauth://totp/Pressroom:") {
		t.Fatalf("setup = %v", setup)
	}
	if r := s.do("POST", "/api/auth/tfa/enable", first, map[string]string{"code": "000000", "current_password": pw}); r.status != 422 || r.body.Errors[0].Field != "code" {
		t.Fatalf("wrong code: %d %s", r.status, r.raw)
	}
	now := time.Now()
	enableCode := code(t, secret, now)
	if r := s.do("POST", "/api/auth/tfa/enable", first, map[string]string{"code": enableCode}); r.status != 422 || r.body.Errors[0].Field != "current_password" {
		t.Fatalf("enable without the password: %d %s", r.status, r.raw)
	}
	r = s.do("POST", "/api/auth/tfa/enable", first, map[string]string{"code": enableCode, "current_password": pw})
	if r.status != 200 {
		t.Fatalf("enable: %d %s", r.status, r.raw)
	}
	recovery := r.body.Data.(map[string]any)["recovery_codes"].([]any)
	if len(recovery) != 10 {
		t.Fatalf("recovery codes = %v", recovery)
	}
	if me := s.me(first); me["tfa_enable"] != true || me["tfa_confirm"] != true {
		t.Fatalf("enabling session: %v", me)
	}

	// A new sign-in owes a code: /me answers, the rest is refused until the code is given.
	second := s.mint("seller@example.com", "own", "", false)
	if me := s.me(second); me["tfa_enable"] != true || me["tfa_confirm"] != false {
		t.Fatalf("new session: %v", me)
	}
	if r := s.do("GET", "/api/seller/orders", second, nil); r.status != 403 || r.body.Message != auth.MsgTFARequired {
		t.Fatalf("orders before the code: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/auth/tfa/verify", second, map[string]string{"code": enableCode}); r.status != 422 {
		t.Fatalf("the enrolment code again: %d %s", r.status, r.raw)
	}
	// One step of clock drift is accepted; the code of the next step is fresh.
	next := code(t, secret, now.Add(30*time.Second))
	if r := s.do("POST", "/api/auth/tfa/verify", second, map[string]string{"code": next}); r.status != 200 {
		t.Fatalf("next step's code: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/seller/orders", second, nil); r.status != 200 {
		t.Fatalf("orders after the code: %d %s", r.status, r.raw)
	}
	third := s.mint("seller@example.com", "own", "", false)
	if r := s.do("POST", "/api/auth/tfa/verify", third, map[string]string{"code": next}); r.status != 422 {
		t.Fatalf("a code is accepted once: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/auth/tfa/verify", third, map[string]string{"code": code(t, secret, now.Add(-5*time.Minute))}); r.status != 422 {
		t.Fatalf("a code from outside the window: %d %s", r.status, r.raw)
	}
	rc := recovery[0].(string)
	if r := s.do("POST", "/api/auth/tfa/verify", third, map[string]string{"recovery_code": strings.ToUpper(rc)}); r.status != 200 {
		t.Fatalf("recovery code: %d %s", r.status, r.raw)
	}
	fourth := s.mint("seller@example.com", "own", "", false)
	if r := s.do("POST", "/api/auth/tfa/verify", fourth, map[string]string{"recovery_code": rc}); r.status != 422 {
		t.Fatalf("a recovery code works once: %d %s", r.status, r.raw)
	}
	var stored int
	s.app.DB.Get(&stored, `SELECT count(*) FROM tfa_recovery_codes WHERE code_hash = $1::bytea`, []byte(strings.ReplaceAll(rc, "-", "")))
	if stored != 0 {
		t.Fatal("recovery codes must be stored hashed")
	}
	// Failed codes are throttled like failed logins.
	var last reply
	for range s.cfg.Auth.MaxFailuresPerAccount + 1 {
		last = s.do("POST", "/api/auth/tfa/verify", fourth, map[string]string{"code": "123456"})
	}
	if last.status != 429 {
		t.Fatalf("guessing codes: %d %s", last.status, last.raw)
	}
}

func TestSwitchAccount(t *testing.T) {
	s := newStack(t)
	var sellerID int64
	s.app.DB.Get(&sellerID, `SELECT id FROM users WHERE email = 'seller@example.com'`)
	team := s.mint("team@example.com", "own", "", false)
	r := s.do("GET", "/api/seller/authorized-accounts", team, nil)
	accounts := r.body.Data.([]any)
	if r.status != 200 || len(accounts) != 1 || accounts[0].(map[string]any)["name"] != "Sam Seller" || accounts[0].(map[string]any)["role"] != "staff" {
		t.Fatalf("authorized accounts: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/seller/switch-account", team, map[string]any{"seller_id": sellerID + 1000}); r.status != 403 || r.body.Message != auth.MsgCannotSwitch {
		t.Fatalf("switch to a stranger: %d %s", r.status, r.raw)
	}
	r = s.do("POST", "/api/seller/switch-account", team, map[string]any{"seller_id": sellerID})
	if r.status != 200 || r.body.Message != auth.MsgSwitched {
		t.Fatalf("switch: %d %s", r.status, r.raw)
	}
	switched := accessToken(t, r)
	if r := s.do("GET", "/api/me", team, nil); r.status != 401 {
		t.Fatalf("the session switched from is revoked: %d", r.status)
	}
	me := s.me(switched)
	if me["email"] != "seller@example.com" || me["access_user"] != true || me["roles"].([]any)[0] != "staff" {
		t.Fatalf("switched me: %v", me)
	}
	if r := s.do("GET", "/api/seller/orders", switched, nil); r.status != 200 {
		t.Fatalf("orders with get_orders: %d", r.status)
	}
	if r := s.do("POST", "/api/auth/tfa/setup", switched, nil); r.status != 403 {
		t.Fatalf("the seller's two-factor is not the member's to change: %d", r.status)
	}
	// Permissions are read on every request: taking get_orders away applies at once.
	s.app.DB.MustExec(`UPDATE team_members SET permissions = '{get_campaigns}' WHERE seller_id = $1`, sellerID)
	if r := s.do("GET", "/api/seller/orders", switched, nil); r.status != 403 {
		t.Fatalf("orders after losing get_orders: %d", r.status)
	}
	r = s.do("POST", "/api/seller/switch-back-account", switched, nil)
	back := accessToken(t, r)
	if me := s.me(back); me["email"] != "team@example.com" || me["access_user"] != false {
		t.Fatalf("back: %v", me)
	}
	if r := s.do("POST", "/api/seller/switch-back-account", back, nil); r.status != 422 || r.body.Message != auth.MsgCannotGoBack {
		t.Fatalf("switch back from the own account: %d %s", r.status, r.raw)
	}
	// A seller with two-factor on needs a member with two-factor on: customPayload.fta_diff.
	s.app.DB.MustExec(`UPDATE users SET tfa_enable = true WHERE id = $1`, sellerID)
	r = s.do("POST", "/api/seller/switch-account", back, map[string]any{"seller_id": sellerID})
	if r.status != 403 || !bytes.Contains(r.raw, []byte(`"customPayload":{"fta_diff":true}`)) {
		t.Fatalf("fta_diff: %d %s", r.status, r.raw)
	}
	// A removed member's switched session ends.
	s.app.DB.MustExec(`UPDATE users SET tfa_enable = false WHERE id = $1`, sellerID)
	again := accessToken(t, s.do("POST", "/api/seller/switch-account", back, map[string]any{"seller_id": sellerID}))
	s.app.DB.MustExec(`DELETE FROM team_members WHERE seller_id = $1`, sellerID)
	if r := s.do("GET", "/api/me", again, nil); r.status != 401 {
		t.Fatalf("removed member: %d", r.status)
	}
}

func TestImpersonation(t *testing.T) {
	s := newStack(t)
	admin := s.mint("admin@example.com", "own", "", false)
	seller := s.mint("seller@example.com", "own", "", false)
	if r := s.do("POST", "/api/admin/login-as-seller", seller, map[string]string{"email": "seller@example.com"}); r.status != 403 {
		t.Fatalf("a seller impersonating: %d", r.status)
	}
	if r := s.do("POST", "/api/admin/login-as-seller", admin, map[string]string{"email": "designer@example.com"}); r.status != 422 || r.body.Message != auth.MsgNotASeller {
		t.Fatalf("impersonating a designer: %d %s", r.status, r.raw)
	}
	r := s.do("POST", "/api/admin/login-as-seller", admin, map[string]string{"email": "seller@example.com"})
	token := accessToken(t, r)
	me := s.me(token)
	if me["email"] != "seller@example.com" || me["access_user"] != true {
		t.Fatalf("impersonated me: %v", me)
	}
	if r := s.do("GET", "/api/seller/orders", token, nil, "X-Request-Id", "req-impersonated-orders"); r.status != 200 {
		t.Fatalf("orders: %d", r.status)
	}
	for _, path := range []string{"/api/auth/change-password", "/api/auth/change-email", "/api/auth/tfa/setup", "/api/auth/tfa/disable"} {
		if r := s.do("POST", path, token, map[string]string{}); r.status != 403 || r.body.Message != auth.MsgImpersonating {
			t.Fatalf("%s while impersonating: %d %s", path, r.status, r.raw)
		}
	}
	var n int
	q := `SELECT count(*) FROM audit_events a JOIN users ad ON ad.id = a.user_id
WHERE a.action = 'impersonation.request' AND ad.email = 'admin@example.com'
  AND a.detail->>'path' = '/api/seller/orders' AND a.detail->>'request_id' = 'req-impersonated-orders'
  AND (a.detail->>'seller_id')::bigint = (SELECT id FROM users WHERE email = 'seller@example.com')
  AND a.detail ? 'at'`
	if err := s.app.DB.Get(&n, q); err != nil || n != 1 {
		t.Fatalf("audit of the impersonated request: %d rows, %v", n, err)
	}
	if r := s.do("GET", "/api/me", admin, nil); r.status != 200 {
		t.Fatalf("the admin's own session stays: %d", r.status)
	}
}

// TestBackToAdmin: an impersonating admin goes back to their own account in one call; the
// impersonation ends with it, and nobody else can use the way back.
func TestBackToAdmin(t *testing.T) {
	s := newStack(t)
	admin := s.mint("admin@example.com", "own", "", false)
	seller := s.mint("seller@example.com", "own", "", false)
	if r := s.do("POST", "/api/admin/back-to-admin", seller, nil); r.status != 422 || r.body.Message != auth.MsgNotImpersonating {
		t.Fatalf("a seller in their own account: %d %s", r.status, r.raw)
	}
	if r := s.do("POST", "/api/admin/back-to-admin", admin, nil); r.status != 422 {
		t.Fatalf("an admin not impersonating: %d %s", r.status, r.raw)
	}
	impersonation := accessToken(t, s.do("POST", "/api/admin/login-as-seller", admin, map[string]string{"email": "seller@example.com"}))
	r := s.do("POST", "/api/admin/back-to-admin", impersonation, nil)
	if r.status != 200 || r.body.Message != auth.MsgBackToAdmin {
		t.Fatalf("back to admin: %d %s", r.status, r.raw)
	}
	back := accessToken(t, r)
	if me := s.me(back); me["email"] != "admin@example.com" || me["access_user"] != false {
		t.Fatalf("back as: %v", me)
	}
	if r := s.do("GET", "/api/me", impersonation, nil); r.status != 401 {
		t.Fatalf("the impersonation outlived the way back: %d", r.status)
	}
	var n int
	q := `SELECT count(*) FROM audit_events a JOIN users ad ON ad.id = a.user_id WHERE a.action = 'impersonation.stop' AND ad.email = 'admin@example.com'`
	if err := s.app.DB.Get(&n, q); err != nil || n != 1 {
		t.Fatalf("audit of the stop: %d rows, %v", n, err)
	}
}

func TestChangePassword(t *testing.T) {
	s := newStack(t)
	token := s.mint("seller@example.com", "own", "", false)
	other := s.mint("seller@example.com", "own", "", false)
	body := map[string]string{"current_password": "wrong-one", "password": "another-pass", "password_confirmation": "another-pass"}
	if r := s.do("POST", "/api/auth/change-password", token, body); r.status != 422 || r.body.Errors[0].Field != "current_password" {
		t.Fatalf("wrong current password: %d %s", r.status, r.raw)
	}
	body["current_password"] = seed.DemoPassword
	if r := s.do("POST", "/api/auth/change-password", token, body); r.status != http.StatusOK {
		t.Fatalf("change: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/me", other, nil); r.status != 401 {
		t.Fatalf("other sessions end: %d", r.status)
	}
	if r := s.do("GET", "/api/me", token, nil); r.status != 200 {
		t.Fatalf("this session stays: %d", r.status)
	}
}

func TestChangeEmail(t *testing.T) {
	s := newStack(t)
	token := s.mint("seller@example.com", "own", "", false)
	change := func(email, password string) reply {
		return s.do("POST", "/api/auth/change-email", token, map[string]string{"email": email, "current_password": password})
	}
	for _, c := range []struct{ email, password, field, message string }{
		{"nia-new@example.com", "wrong-one", "current_password", auth.MsgWrongPassword},
		{"not an address", seed.DemoPassword, "email", "The email must be a valid email address."},
		{"Seller@Example.com", seed.DemoPassword, "email", auth.MsgSameEmail},
		{"designer@example.com", seed.DemoPassword, "email", auth.MsgEmailTaken},
		{"nia-new@example.com", "", "current_password", "The current password field is required."},
	} {
		if r := change(c.email, c.password); r.status != 422 || r.body.Errors[0].Field != c.field || r.body.Message != c.message {
			t.Fatalf("change to %q: %d %s", c.email, r.status, r.raw)
		}
	}
	if r := change("first-try@example.com", seed.DemoPassword); r.status != 200 {
		t.Fatalf("first request: %d %s", r.status, r.raw)
	}
	_, _, stale := s.lastMail("first-try@example.com")
	r := change("nia-new@example.com", seed.DemoPassword)
	if r.status != 200 || !strings.Contains(r.body.Message, "nia-new@example.com") {
		t.Fatalf("request: %d %s", r.status, r.raw)
	}
	var notice string
	s.app.DB.Get(&notice, `SELECT subject FROM mail_outbox WHERE to_address = 'seller@example.com' ORDER BY id DESC LIMIT 1`)
	if notice != "Your Pressroom email address is being changed" {
		t.Fatalf("the old address is told: %q", notice)
	}
	if s.me(token)["email"] != "seller@example.com" {
		t.Fatal("the address changed before the link was opened")
	}
	if r := s.do("POST", "/api/auth/verify-email", "", map[string]string{"token": stale}); r.status != 422 || r.body.Message != auth.MsgBadVerifyLink {
		t.Fatalf("an earlier request's link: %d %s", r.status, r.raw)
	}
	subject, _, link := s.lastMail("nia-new@example.com")
	if subject != "Confirm your new email address" {
		t.Fatalf("confirmation mail: %q", subject)
	}
	if r := s.do("POST", "/api/auth/verify-email", "", map[string]string{"token": link}); r.status != 200 || r.body.Message != auth.MsgEmailChanged {
		t.Fatalf("confirm: %d %s", r.status, r.raw)
	}
	if me := s.me(token); me["email"] != "nia-new@example.com" || me["email_verified_at"] == nil {
		t.Fatalf("after confirming: %v", me)
	}
	if r := s.do("POST", "/api/auth/seller/login", "", map[string]string{"email": "nia-new@example.com", "password": seed.DemoPassword}); r.status != 200 {
		t.Fatalf("sign in with the new address: %d %s", r.status, r.raw)
	}
	var audited int
	s.app.DB.Get(&audited, `SELECT count(*) FROM audit_events WHERE action = 'email.changed' AND detail->>'email' = 'nia-new@example.com'`)
	if audited != 1 {
		t.Fatalf("email.changed audited %d times", audited)
	}
}

func TestChangeEmailLinkRefusedWhenTheAddressWasTaken(t *testing.T) {
	s := newStack(t)
	token := s.mint("seller@example.com", "own", "", false)
	if r := s.do("POST", "/api/auth/change-email", token, map[string]string{"email": "late@example.com", "current_password": seed.DemoPassword}); r.status != 200 {
		t.Fatalf("request: %d %s", r.status, r.raw)
	}
	_, _, link := s.lastMail("late@example.com")
	body := map[string]string{"name": "Late", "email": "late@example.com", "password": "long-enough-1", "password_confirmation": "long-enough-1"}
	accessToken(t, s.do("POST", "/api/auth/register", "", body))
	if r := s.do("POST", "/api/auth/verify-email", "", map[string]string{"token": link}); r.status != 422 || r.body.Message != auth.MsgEmailTaken {
		t.Fatalf("confirm a taken address: %d %s", r.status, r.raw)
	}
	if s.me(token)["email"] != "seller@example.com" {
		t.Fatal("the address changed to a taken one")
	}
}

func TestMailOutboxIsForAdmins(t *testing.T) {
	s := newStack(t)
	s.do("POST", "/api/auth/forgot-password", "", map[string]string{"email": "seller@example.com"})
	if r := s.do("GET", "/api/admin/system/mail", s.mint("seller@example.com", "own", "", false), nil); r.status != 403 {
		t.Fatalf("seller reads the outbox: %d", r.status)
	}
	r := s.do("GET", "/api/admin/system/mail?q=seller", s.mint("admin@example.com", "own", "", false), nil)
	if r.status != 200 || !bytes.Contains(r.raw, []byte(`"subject":"Reset your Pressroom password"`)) || !bytes.Contains(r.raw, []byte(`"total":1`)) {
		t.Fatalf("outbox: %d %s", r.status, r.raw)
	}
}
